import {WorkbenchError, describeError, isWorkbenchError} from '../../core/errors.js';
import type {FetchResult} from '../../feeds/contracts.js';
import type {fetchFeed} from '../../feeds/fetcher/index.js';
import {parseFeed} from '../../feeds/parser/index.js';
import {MAX_CHECK_DELAY_SECONDS, retryAfterOf} from '../../feeds/poller/index.js';
import type {Store} from '../../storage/index.js';
import {toTerminalLine} from '../../text/terminal-safe.js';
import {findOrigin, saveOrigin, type OriginRecord} from '../store/origin-rows.js';
import type {ProxiedFeedConfig, RefreshResult} from '../types.js';
import {documentVersion} from '../../syndication/index.js';
import {originItems} from './origin-items.js';

export interface PollContext {
  store: Store;
  now(): number;
  fetch: typeof fetchFeed;
  /** The fetch's deadline (the fetcher's default when absent). */
  timeoutMs?: number;
}

/** What one poll did; origin failures are in `error`, never thrown (only the store's are). */
export type PollOutcome =
  | {
      result: RefreshResult;
      /** The row as it is now (null: a skipped poll of a feed never polled). */
      record: OriginRecord | null;
      /** The copy's version changed: the served feed is new. */
      changed: boolean;
    }
  | {
      /** The origin failed (recorded on the row, the copy kept): feed_unreachable or not_a_feed. */
      error: WorkbenchError;
      record: OriginRecord;
      changed: false;
    };

const ERROR_LIMIT = 500;

/**
 * Polls one origin now: a conditional GET with the copy's validators (through the reader's
 * fetcher and address policy; the origin is the user's own config, so private addresses are
 * allowed as for a typed URL), parsed by the reader's parser, and one write of the row.
 *
 * Stale-on-error: a failure (down, timeout, HTTP error, a body that is no feed) never becomes an
 * item and never replaces the copy; it marks the row stale with the time and reason, and the next
 * good poll clears the mark. A 304, or a 200 with the same content, is not-modified.
 *
 * `skipped` means no request was made because the origin's Retry-After has not passed; the
 * message says until when. A row polled from another origin URL (the config changed) is not
 * this feed's: the poll starts fresh, without its validators.
 */
export async function pollOrigin(context: PollContext, feed: ProxiedFeedConfig): Promise<PollOutcome> {
  const now = context.now();
  const stored = await findOrigin(context.store.db, feed.name);
  const current = stored && stored.origin === feed.origin ? stored : null;
  if (current?.retryAfterUntil && current.retryAfterUntil > now) {
    const until = new Date(current.retryAfterUntil).toISOString();
    return {
      result: {id: feed.name, status: 'skipped', message: `the origin asked for no request before ${until} (Retry-After); the last good copy is served until then`},
      record: current,
      changed: false,
    };
  }
  const copy = current?.items ? current : null;

  let fetched: FetchResult;
  let record: OriginRecord;
  try {
    fetched = await context.fetch(feed.origin, {etag: copy?.etag, lastModified: copy?.lastModified, allowPrivate: true, timeoutMs: context.timeoutMs});
    record = fetched.status === 'not_modified' ? notModified(copy, feed, fetched) : fresh(copy, feed, fetched, now);
  } catch (error) {
    const {reason, failure} = originFailure(feed, error);
    const failed: OriginRecord = {...(current ?? emptyRecord(feed)), stale: true, lastFailureAt: now, lastError: reason, ...schedule(feed, now, retryAfterOf(error))};
    await saveOrigin(context.store.db, failed);
    return {error: failure, record: failed, changed: false};
  }

  const changed = record.version !== copy?.version;
  const saved: OriginRecord = {...record, lastSuccessAt: now, stale: false, updatedAt: changed ? now : (copy?.updatedAt ?? now), ...schedule(feed, now, fetched.retryAfterSeconds)};
  await saveOrigin(context.store.db, saved);
  return {result: {id: feed.name, status: changed ? 'ok' : 'not-modified'}, record: saved, changed};
}

/** A 304: the copy stands, with the validators the answer refreshed. */
function notModified(copy: OriginRecord | null, feed: ProxiedFeedConfig, fetched: FetchResult): OriginRecord {
  // Validators are only sent with a copy, so a 304 without one is the origin's mistake.
  if (!copy) throw new WorkbenchError('feed_unreachable', `${feed.origin} answered 304 Not Modified to a request without validators`);
  return {...copy, etag: fetched.etag, lastModified: fetched.lastModified};
}

/** A 200: the body parsed (not_a_feed throws here, before anything is kept) into a new copy. */
function fresh(copy: OriginRecord | null, feed: ProxiedFeedConfig, fetched: FetchResult, now: number): OriginRecord {
  // The address after redirects is the base for relative links.
  const parsed = parseFeed(fetched.body, fetched.contentType, {url: fetched.finalUrl});
  const items = originItems(parsed, copy?.items ?? null, now);
  const title = parsed.title.trim() || null;
  const description = parsed.description?.trim() || null;
  const siteUrl = parsed.link ?? null;
  const version = documentVersion({title: title ?? '', description, siteUrl, items});
  return {
    ...(copy ?? emptyRecord(feed)),
    // A 200 without validators means the old ones no longer apply.
    etag: fetched.etag,
    lastModified: fetched.lastModified,
    title,
    description,
    siteUrl,
    items,
    version,
  };
}

/** A feed's record before anything was fetched: its name and origin, nothing known yet. */
export function emptyRecord(feed: Pick<ProxiedFeedConfig, 'name' | 'origin'>): OriginRecord {
  return {
    name: feed.name,
    origin: feed.origin,
    etag: null,
    lastModified: null,
    title: null,
    description: null,
    siteUrl: null,
    items: null,
    version: null,
    updatedAt: null,
    lastSuccessAt: null,
    lastFailureAt: null,
    lastError: null,
    nextPollAt: null,
    stale: false,
    retryAfterUntil: null,
  };
}

/** The next poll: one interval on, or later when the origin's Retry-After says so (capped at a day past the interval). */
function schedule(feed: ProxiedFeedConfig, now: number, retryAfterSeconds: number | null): Pick<OriginRecord, 'nextPollAt' | 'retryAfterUntil'> {
  const retryAfterUntil = retryAfterSeconds && retryAfterSeconds > 0 ? now + Math.min(retryAfterSeconds, MAX_CHECK_DELAY_SECONDS) * 1000 : null;
  return {retryAfterUntil, nextPollAt: Math.max(now + feed.pollIntervalMs, retryAfterUntil ?? 0)};
}

/**
 * The failure as the refresh webhook answers it: not_a_feed for a body that is no feed, else
 * feed_unreachable (a body over the size cap included: the origin failed, not the caller). The
 * message is one line of printable text, since it comes partly from the origin (a status text)
 * and is shown in terminals and status pages.
 */
function originFailure(feed: ProxiedFeedConfig, error: unknown): {reason: string; failure: WorkbenchError} {
  const code = isWorkbenchError(error) && error.code === 'not_a_feed' ? 'not_a_feed' : 'feed_unreachable';
  const reason = toTerminalLine(describeError(error)).trim().slice(0, ERROR_LIMIT) || 'unknown error';
  return {reason, failure: new WorkbenchError(code, `feed "${feed.name}": ${reason}`, isWorkbenchError(error) ? error.details : undefined)};
}
