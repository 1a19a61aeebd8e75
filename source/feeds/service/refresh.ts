import {WorkbenchError, describeError, isWorkbenchError} from '../../core/errors.js';
import type {FetchResult} from '../contracts.js';
import {allowsPrivate, findFeedRow, savePoll, updateFeedRow, type FeedRow} from '../store/index.js';
import type {ParsedFeed} from '../types.js';
import type {ReaderContext} from './context.js';
import {failurePatch, successPatch} from './poll-outcome.js';
import {polledItems} from './polled-items.js';

/**
 * Polls one feed now: a conditional GET with the stored validators, under the address policy its
 * origin allows (a feed found at a public address never reaches a private one, even when its name
 * rebinds later), then one transaction with the new articles and the feed's state. A failure is recorded on the feed (its articles stay)
 * and answered as feed_unreachable.
 */
export async function pollFeed(context: ReaderContext, feedId: number): Promise<{newArticles: number}> {
  const {store, deps} = context;
  const feed = await findFeedRow(store.db, feedId);
  if (!feed) throw new WorkbenchError('not_found', `no feed ${feedId}`);

  let fetched: FetchResult;
  let parsed: ParsedFeed | null = null;
  try {
    fetched = await deps.fetchFeed(feed.url, {etag: feed.etag, lastModified: feed.last_modified, allowPrivate: allowsPrivate(feed)});
    if (fetched.status === 'ok') parsed = deps.parseFeed(fetched.body, fetched.contentType ?? undefined, {url: fetched.finalUrl});
  } catch (error) {
    await recordFailure(context, feed, error);
    const reason = isWorkbenchError(error) && error.code === 'not_a_feed' ? `not a feed: ${describeError(error)}` : describeError(error);
    throw new WorkbenchError('feed_unreachable', `refreshing feed ${feed.id} failed: ${reason}`, isWorkbenchError(error) ? error.details : undefined);
  }

  const patch = await successPatch(context, feed, fetched, parsed);
  if (!parsed) {
    await updateFeedRow(store.db, feed.id, patch);
    return {newArticles: 0};
  }
  const newArticles = await savePoll(store.db, feed.id, polledItems(deps, parsed), patch, context.nowMs());
  return {newArticles};
}

async function recordFailure(context: ReaderContext, feed: FeedRow, error: unknown): Promise<void> {
  await updateFeedRow(context.store.db, feed.id, failurePatch(context, feed, error));
}
