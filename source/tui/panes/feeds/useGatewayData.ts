import type {ChannelSummary, ProxiedFeedStatus} from '../../../gateway/types.js';
import {toTerminalLine} from '../../../text/terminal-safe.js';
import {useWatched, type Watched} from '../../hooks/useWatched.js';
import type {GatewayPort, GatewaySnapshot} from '../../ports/gateway.js';

const lineOrNull = (text: string | null) => (text === null ? null : toTerminalLine(text));

/** Names, titles, origins and errors come from origins and posters: made terminal-safe here, where they enter the view. */
function shown(snapshot: GatewaySnapshot): GatewaySnapshot {
  return {
    url: toTerminalLine(snapshot.url),
    feeds: snapshot.feeds.map((feed): ProxiedFeedStatus => ({
      ...feed,
      name: toTerminalLine(feed.name),
      title: lineOrNull(feed.title),
      origin: toTerminalLine(feed.origin),
      lastError: lineOrNull(feed.lastError),
      feedUrl: toTerminalLine(feed.feedUrl),
    })),
    channels: snapshot.channels.map((channel): ChannelSummary => ({
      ...channel,
      id: toTerminalLine(channel.id),
      title: toTerminalLine(channel.title),
      description: lineOrNull(channel.description),
      feedUrl: toTerminalLine(channel.feedUrl),
    })),
  };
}

/** The running gateway's feeds and channels, kept current by the port while the view is open. */
export function useGatewayData(port: GatewayPort, enabled: boolean): Watched<GatewaySnapshot> {
  return useWatched(async () => shown(await port.snapshot()), port.watch, [port], enabled);
}
