import {WorkbenchError, describeError, isWorkbenchError} from '../../core/errors.js';
import type {FetchResult} from '../contracts.js';
import {parseFeedUrl} from '../fetcher/feed-url.js';
import {feedsWithUnread, findFeedIdByUrl, isUniqueViolation, saveNewFeed, type FeedRow, type NewFeed} from '../store/index.js';
import type {DiscoveredFeed, Feed, ParsedFeed} from '../types.js';
import type {ReaderContext} from './context.js';
import {successPatch} from './poll-outcome.js';
import {polledItems} from './polled-items.js';

/** Miniflux's default: a feed is polled hourly unless it asks for less often. */
export const DEFAULT_INTERVAL_MINUTES = 60;

export type SubscribeAnswer = {feed: Feed} | {choices: DiscoveredFeed[]};

/**
 * Subscribes to a feed URL. A page instead of a feed goes through discovery: one feed found →
 * subscribed to it; several → the choices, nothing subscribed; none → not_a_feed.
 */
export async function subscribe(context: ReaderContext, url: string, category: string | null): Promise<SubscribeAnswer> {
  const requested = parseFeedUrl(url).href;
  await refuseKnown(context, requested);
  const fetched = await fetchForSubscribe(context, requested);
  let parsed: ParsedFeed;
  try {
    parsed = context.deps.parseFeed(fetched.body, fetched.contentType ?? undefined, {url: fetched.finalUrl});
  } catch (error) {
    if (!isNotAFeed(error)) throw error;
    const found = await discover(context, requested);
    if (found.length === 0) throw new WorkbenchError('not_a_feed', `${requested} is not a feed and links to none`);
    if (found.length > 1) return {choices: found};
    // A link found at a public address may not lead to a private one (source/net/address-policy.ts).
    return {feed: await subscribeFeed(context, found[0]!.url, category, fetched.viaPublic !== true)};
  }
  return {feed: await createFeed(context, requested, fetched, parsed, category, true)};
}

/** Feeds reachable from a URL (the URL itself when it is a feed), without subscribing. */
export async function discover(context: ReaderContext, url: string): Promise<DiscoveredFeed[]> {
  const requested = parseFeedUrl(url).href;
  try {
    return await context.deps.discoverFeeds(requested);
  } catch (error) {
    throw asFetchError(error, requested);
  }
}

/**
 * A URL discovery named: it has to be a feed itself now, at an address the page may lead to. A
 * link found at a public address is stored so: its later polls may not reach a private address
 * either (a name that rebinds to 127.0.0.1 after subscribing).
 */
async function subscribeFeed(context: ReaderContext, url: string, category: string | null, allowPrivate: boolean): Promise<Feed> {
  const requested = parseFeedUrl(url).href;
  await refuseKnown(context, requested);
  const fetched = await fetchForSubscribe(context, requested, allowPrivate);
  const parsed = context.deps.parseFeed(fetched.body, fetched.contentType ?? undefined, {url: fetched.finalUrl});
  return createFeed(context, requested, fetched, parsed, category, allowPrivate);
}

/**
 * Stores a subscription and its first poll. `allowPrivate` is what the URL's origin allows (a
 * typed URL: true); a permanent redirect that reached a public address on the way moves the
 * subscription to a URL found there, which may not lead to a private address later.
 */
async function createFeed(context: ReaderContext, requested: string, fetched: FetchResult, parsed: ParsedFeed, category: string | null, allowPrivate: boolean): Promise<Feed> {
  const {store} = context;
  const url = fetched.permanentUrl ?? requested;
  if (url !== requested) await refuseKnown(context, url);
  const nowMs = context.nowMs();
  const pending: FeedRow = {
    id: 0,
    url,
    title: '',
    site_url: null,
    category,
    etag: null,
    last_modified: null,
    fetch_status: 'pending',
    last_error: null,
    last_fetched_at: null,
    last_success_at: null,
    next_fetch_at: null,
    interval_minutes: DEFAULT_INTERVAL_MINUTES,
    consecutive_failures: 0,
    allow_private: allowPrivate,
    unread_count: 0,
    created_at: nowMs,
  };
  const state = await successPatch(context, pending, {...fetched, permanentUrl: null}, parsed);
  const feed: NewFeed = {
    ...state,
    url,
    title: state.title ?? new URL(url).hostname,
    site_url: state.site_url ?? null,
    category,
    interval_minutes: DEFAULT_INTERVAL_MINUTES,
    allow_private: allowPrivate && (url === requested || fetched.viaPublic !== true),
  };
  let id: number;
  try {
    id = await saveNewFeed(store.db, store.dialect, feed, polledItems(context.deps, parsed), nowMs);
  } catch (error) {
    if (isUniqueViolation(error)) throw new WorkbenchError('conflict', `already subscribed to ${url}`);
    throw error;
  }
  const [created] = await feedsWithUnread(store.db, store.dialect, context.nowMs(), id);
  return created!;
}

async function refuseKnown(context: ReaderContext, url: string): Promise<void> {
  const existing = await findFeedIdByUrl(context.store.db, url);
  if (existing !== undefined) throw new WorkbenchError('conflict', `already subscribed to ${url} (feed ${existing})`, {feedId: existing});
}

async function fetchForSubscribe(context: ReaderContext, url: string, allowPrivate = true): Promise<FetchResult> {
  try {
    const fetched = await context.deps.fetchFeed(url, {allowPrivate});
    if (fetched.status !== 'ok') throw new WorkbenchError('feed_unreachable', `${url} answered 304 to a request without validators`);
    return fetched;
  } catch (error) {
    throw asFetchError(error, url);
  }
}

function isNotAFeed(error: unknown): boolean {
  return isWorkbenchError(error) && error.code === 'not_a_feed';
}

/**
 * Fetch failures keep their code (feed_unreachable, not_a_feed, invalid_argument); an origin body
 * over the cap is the origin's fault, not the request's (502, not 413).
 */
function asFetchError(error: unknown, url: string): WorkbenchError {
  if (isWorkbenchError(error) && error.code === 'payload_too_large') return new WorkbenchError('feed_unreachable', describeError(error), error.details);
  if (isWorkbenchError(error)) return error as WorkbenchError;
  return new WorkbenchError('feed_unreachable', `cannot fetch ${url}: ${describeError(error)}`);
}
