import {describeError} from '../../core/errors.js';
import {retryAfterOf} from '../poller/index.js';
import type {FetchResult} from '../contracts.js';
import {allowsPrivate, findFeedIdByUrl, type FeedPatch, type FeedRow} from '../store/index.js';
import type {ParsedFeed} from '../types.js';
import type {ReaderContext} from './context.js';

const ERROR_LIMIT = 1000;

/** The feed's state after a 200 or a 304: validators as received, failures reset, next check scheduled. */
export async function successPatch(context: ReaderContext, feed: FeedRow, fetched: FetchResult, parsed: ParsedFeed | null): Promise<FeedPatch> {
  const now = context.nowMs();
  const patch: FeedPatch = {
    fetch_status: parsed ? 'ok' : 'not_modified',
    last_error: null,
    last_fetched_at: now,
    last_success_at: now,
    consecutive_failures: 0,
    next_fetch_at: context.deps
      .nextCheckAt({
        now: new Date(now),
        intervalMinutes: feed.interval_minutes,
        consecutiveFailures: 0,
        ttlMinutes: parsed?.ttlMinutes ?? null,
        maxAgeSeconds: fetched.maxAgeSeconds,
        retryAfterSeconds: fetched.retryAfterSeconds,
      })
      .getTime(),
  };
  if (fetched.etag !== null) patch.etag = fetched.etag;
  if (fetched.lastModified !== null) patch.last_modified = fetched.lastModified;
  if (parsed) {
    if (parsed.title.trim()) patch.title = parsed.title.trim();
    if (parsed.link) patch.site_url = parsed.link;
    // A 200 without validators means the old ones no longer apply.
    patch.etag = fetched.etag;
    patch.last_modified = fetched.lastModified;
  }
  // A permanent redirect moves the subscription, unless another one already has that address; a
  // URL found past a public address may not lead to a private one at later polls either.
  if (fetched.permanentUrl && fetched.permanentUrl !== feed.url && (await findFeedIdByUrl(context.store.db, fetched.permanentUrl)) === undefined) {
    patch.url = fetched.permanentUrl;
    patch.allow_private = allowsPrivate(feed) && fetched.viaPublic !== true;
  }
  return patch;
}

/** The feed's state after a failed poll: its articles stay, the error is shown, polls back off. */
export function failurePatch(context: ReaderContext, feed: FeedRow, error: unknown): FeedPatch {
  const now = context.nowMs();
  const failures = feed.consecutive_failures + 1;
  return {
    fetch_status: 'error',
    last_error: describeError(error).slice(0, ERROR_LIMIT),
    last_fetched_at: now,
    consecutive_failures: failures,
    next_fetch_at: context.deps
      .nextCheckAt({now: new Date(now), intervalMinutes: feed.interval_minutes, consecutiveFailures: failures, retryAfterSeconds: retryAfterOf(error)})
      .getTime(),
  };
}
