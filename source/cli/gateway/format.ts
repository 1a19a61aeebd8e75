import {CHANNEL_TTL_MAX_HOURS, CHANNEL_TTL_MIN_HOURS, type ChannelSummary, type CreatedChannel, type ProxiedFeedStatus, type RefreshResult} from '../../gateway/types.js';
import {clip, formatDate, formatTable} from '../../text/table.js';
import {plural} from '../../text/plural.js';

const TITLE_WIDTH = 50;
const when = (iso: string | null) => (iso ? formatDate(iso) : '-');

/** The proxied feeds: a stale feed is marked (its last good copy is served, with X-Feed-Stale), its last error under the table. */
export function formatGatewayFeeds(feeds: ProxiedFeedStatus[]): string {
  if (feeds.length === 0) return 'no proxied feeds · declare one in .workbench.kdl: gateway { feed "<name>" origin="<url>" }\n';
  const rows = feeds.map((feed) => [
    feed.name,
    feedState(feed),
    String(feed.itemCount),
    when(feed.lastSuccessAt),
    when(feed.lastFailureAt),
    when(feed.nextPollAt),
    clip(feed.origin, 200),
  ]);
  const table = formatTable(['NAME', 'STATE', 'ITEMS', 'LAST OK', 'LAST FAILURE', 'NEXT POLL', 'ORIGIN'], rows);
  const errors = feeds.filter((feed) => feed.stale && feed.lastError).map((feed) => `${feed.name}: ${clip(feed.lastError!, 200)}\n`);
  return table + (errors.length ? '\n' + errors.join('') : '');
}

/** ok, stale (served from the last good copy) or never fetched yet. */
export function feedState(feed: Pick<ProxiedFeedStatus, 'stale' | 'lastSuccessAt'>): 'ok' | 'stale' | 'pending' {
  if (feed.stale) return 'stale';
  return feed.lastSuccessAt ? 'ok' : 'pending';
}

export function formatGatewayFeed(feed: ProxiedFeedStatus): string {
  const lines: Array<[string, string]> = [
    ['feed', `${feed.name}${feed.title ? ` "${clip(feed.title, TITLE_WIDTH)}"` : ''}`],
    ['state', feed.stale ? 'stale: the origin failed since the last good poll; the last good copy is served' : feedState(feed)],
    ['url', feed.feedUrl],
    ['origin', feed.origin],
    ['items', String(feed.itemCount)],
    ['polled every', plural(feed.pollIntervalSeconds, 'second')],
    ['last ok', when(feed.lastSuccessAt)],
    ['last failure', feed.lastFailureAt ? `${when(feed.lastFailureAt)}${feed.lastError ? `: ${clip(feed.lastError, 200)}` : ''}` : '-'],
    ['next poll', when(feed.nextPollAt)],
  ];
  return lines.map(([label, value]) => `${`${label}:`.padEnd(14)}${value}\n`).join('');
}

export function formatRefresh(result: RefreshResult): string {
  return `${result.id}: ${result.status === 'ok' ? 'refreshed' : result.status}${result.message ? ` (${clip(result.message, 200)})` : ''}\n`;
}

export function formatChannels(channels: ChannelSummary[]): string {
  if (channels.length === 0) return 'no channels · create one with `workbench channels create --title <title>`\n';
  return formatTable(
    ['ID', 'ITEMS', 'EXPIRES', 'TITLE', 'FEED'],
    channels.map((channel) => [channel.id, String(channel.itemCount), formatDate(channel.expiresAt), clip(channel.title, TITLE_WIDTH), channel.feedUrl]),
  );
}

/** What `channels create` prints once: the write token is not stored in the clear anywhere, so this is the user's only copy. */
export function formatCreatedChannel(channel: CreatedChannel, title: string, ttlHours: number | undefined): string {
  const clamped =
    ttlHours !== undefined && (ttlHours < CHANNEL_TTL_MIN_HOURS || ttlHours > CHANNEL_TTL_MAX_HOURS)
      ? ` (--ttl-hours ${ttlHours} is outside ${CHANNEL_TTL_MIN_HOURS}-${CHANNEL_TTL_MAX_HOURS}: clamped)`
      : '';
  return [
    `created channel ${channel.id} "${clip(title, TITLE_WIDTH)}"`,
    `feed:     ${channel.feed_url}`,
    `expires:  ${formatDate(channel.expires_at)}${clamped}`,
    `token:    ${channel.write_token}`,
    'keep the token: it is shown only this once, and posting to or deleting the channel needs it',
    '',
  ].join('\n');
}
