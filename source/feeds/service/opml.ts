import {describeError} from '../../core/errors.js';
import {WorkbenchError} from '../../core/errors.js';
import {literalRefusal} from '../../net/address-policy.js';
import {parseFeedUrl} from '../fetcher/feed-url.js';
import {readOpml, writeOpml} from '../opml/index.js';
import {feedsWithUnread, findFeedIdByUrl, insertFeedRow, isIngestorFeedUrl, isUniqueViolation} from '../store/index.js';
import type {ReaderContext} from './context.js';

export interface OpmlImport {
  added: number;
  skipped: number;
  failed: {url: string; error: string}[];
}

/**
 * Subscribes to every feed of an OPML document in one transaction. Feeds are stored as pending
 * and due now: the poller fetches them (politely, per host) instead of this request fetching
 * hundreds of origins. Already subscribed → skipped; not an http(s) URL → failed; a link-local or
 * cloud metadata address (169.254.169.254 in any spelling) → failed: it is never fetched. Private
 * and loopback hosts are imported, and polled as typed URLs (an export of one's own dev-server feeds
 * comes back: the user chose the file); their polls,
 * like every fetch, never follow a redirect from a public address to them (source/net/address-policy.ts),
 * and a host name that resolves to a metadata address is refused when polled.
 */
export async function importOpml(context: ReaderContext, xml: string): Promise<OpmlImport> {
  const entries = readOpml(xml);
  const {store} = context;
  const now = context.nowMs();
  const result: OpmlImport = {added: 0, skipped: 0, failed: []};
  try {
    await store.db.transaction(async (trx) => {
      const seen = new Set<string>();
      for (const entry of entries) {
        let url: string;
        try {
          url = parseFeedUrl(entry.url).href;
          const refused = literalRefusal(new URL(url), {allowPrivate: true});
          if (refused) throw new WorkbenchError('invalid_argument', refused.message);
        } catch (error) {
          result.failed.push({url: entry.url, error: describeError(error)});
          continue;
        }
        if (seen.has(url) || (await findFeedIdByUrl(trx, url)) !== undefined) {
          result.skipped++;
          continue;
        }
        seen.add(url);
        const title = entry.title ?? new URL(url).hostname;
        await insertFeedRow(
          trx,
          store.dialect,
          {url, title, site_url: siteUrl(entry.siteUrl), category: entry.category, fetch_status: 'pending', next_fetch_at: now, allow_private: true},
          now,
        );
        result.added++;
      }
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new WorkbenchError('conflict', 'another request subscribed to one of these feeds meanwhile; import again');
    throw error;
  }
  return result;
}

export async function exportOpml(context: ReaderContext): Promise<string> {
  const {store} = context;
  // An ingestor's feed (`ingestor:<id>`) is no URL another reader could fetch: it stays out.
  const feeds = (await feedsWithUnread(store.db, store.dialect, context.nowMs())).filter((feed) => !isIngestorFeedUrl(feed.url));
  return writeOpml(feeds, new Date(context.nowMs()));
}

/** An imported htmlUrl, kept when it is an absolute http(s) URL. */
function siteUrl(value: string | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href.slice(0, 4000) : null;
  } catch {
    return null;
  }
}
