import {WorkbenchError} from '../../core/errors.js';
import {fetchFeed} from '../../feeds/fetcher/index.js';
import {KeyedLimiter, hostKey, singleFlight} from '../../feeds/poller/index.js';
import type {Store} from '../../storage/index.js';
import {findOrigin, findOrigins, type OriginRecord} from '../store/origin-rows.js';
import type {FeedDocument, GatewayConfig, ProxiedFeedConfig, ProxiedFeedStatus, RefreshResult} from '../types.js';
import {originDocument, originStatus} from './origin-views.js';
import {pollOrigin, type PollContext, type PollOutcome} from './poll-origin.js';

export interface OriginPollerOptions {
  store: Store;
  config: GatewayConfig;
  /** Where the gateway is reached (no trailing slash), for each status's feedUrl. */
  baseUrl: () => string;
  /** Milliseconds since the epoch (tests pass a clock). */
  now?: () => number;
  /** The reader's fetcher (tests may wrap it to count or stage requests). */
  fetch?: typeof fetchFeed;
  /** Deadline of one origin fetch (default the fetcher's, 20 s). */
  timeoutMs?: number;
  /** A poll changed a feed's content (a new version): re-render, push to subscribers. */
  onChange?: (name: string) => void;
  /** A background poll failed (the failure is on the feed's status too), or reading the store failed. */
  onError?: (name: string, error: unknown) => void;
}

export interface OriginPoller {
  /** Polls each feed when due (at once if never polled or overdue, e.g. after a restart), then at its interval. */
  start(): void;
  /** No new poll starts; resolves once the running ones have finished. */
  stop(): Promise<void>;
  /**
   * Polls now, past the interval, still with conditional headers; concurrent calls for one feed
   * (and a background poll running) share one origin fetch. not_found for an unknown name;
   * feed_unreachable / not_a_feed when the origin fails (recorded, the copy kept and marked stale);
   * `skipped` when the origin's Retry-After has not passed (no request made, message says until when).
   */
  refresh(name: string): Promise<RefreshResult>;
  /** The last good copy served at `/<name>`, or null (not a configured feed, or no good poll yet). Do not mutate it. */
  document(name: string): Promise<FeedDocument | null>;
  /** A configured feed's poll status, read from the store (the origin is never contacted); not_found otherwise. */
  status(name: string): Promise<ProxiedFeedStatus>;
  /** Every configured feed's status, in config order. */
  list(): Promise<ProxiedFeedStatus[]>;
}

// setTimeout's longest delay; a later poll is reached by re-arming.
const MAX_DELAY_MS = 2 ** 31 - 1;
// Background polls at once, and against one host:port (the reader's politeness); forced refreshes are not queued.
const WORKERS = 8;
const PER_HOST = 2;

/**
 * The proxied feeds' poller: one timer per configured feed, armed at the feed's next poll as
 * stored (so a restart keeps the schedule and serves the stored copy at once), background polls
 * run through a limiter (a few at once, two per origin host), and every poll of a feed through
 * one single flight. Feeds the config no longer names keep their rows, unserved. The served
 * documents are kept in memory, replaced by each poll that writes the row (one gateway process
 * per database is assumed: the poller is the only writer of gateway_origins).
 */
export function createOriginPoller(options: OriginPollerOptions): OriginPoller {
  const feeds = new Map(options.config.feeds.map((feed) => [feed.name, feed]));
  const now = options.now ?? Date.now;
  const context: PollContext = {store: options.store, now, fetch: options.fetch ?? fetchFeed, timeoutMs: options.timeoutMs};
  const flights = singleFlight<string, PollOutcome>();
  const documents = new Map<string, Promise<FeedDocument | null>>();
  const timers = new Map<string, NodeJS.Timeout>();
  const running = new Set<Promise<unknown>>();
  const limiter = new KeyedLimiter(WORKERS, PER_HOST);
  let started = false;

  const report = (name: string, error: unknown): void => {
    try {
      options.onError?.(name, error);
    } catch {
      // A failing handler must not stop the poller.
    }
  };

  const feedOf = (name: string): ProxiedFeedConfig => {
    const feed = typeof name === 'string' ? feeds.get(name) : undefined;
    if (!feed) throw new WorkbenchError('not_found', `no proxied feed "${String(name).slice(0, 100)}"`);
    return feed;
  };

  /** The row, if it was polled from the feed's current origin (another origin's copy is not this feed's). */
  const ownRecord = (feed: ProxiedFeedConfig, record: OriginRecord | undefined | null): OriginRecord | null => (record && record.origin === feed.origin ? record : null);

  function arm(feed: ProxiedFeedConfig, at: number): void {
    if (!started) return;
    clearTimeout(timers.get(feed.name));
    const timer = setTimeout(
      () => {
        if (timers.get(feed.name) === timer) timers.delete(feed.name);
        limiter.push(hostKey(feed.origin), () => tick(feed));
      },
      Math.min(Math.max(0, at - now()), MAX_DELAY_MS),
    );
    timer.unref();
    timers.set(feed.name, timer);
  }

  function track<T>(work: Promise<T>): Promise<T> {
    running.add(work);
    void work.finally(() => running.delete(work)).catch(() => undefined);
    return work;
  }

  function poll(feed: ProxiedFeedConfig): Promise<PollOutcome> {
    return flights.run(feed.name, async () => {
      let outcome: PollOutcome;
      try {
        outcome = await pollOrigin(context, feed);
      } catch (error) {
        // The store failed: try again after an interval.
        arm(feed, now() + feed.pollIntervalMs);
        throw error;
      }
      if (outcome.record) documents.set(feed.name, Promise.resolve(originDocument(feed, outcome.record)));
      arm(feed, outcome.record?.nextPollAt ?? now() + feed.pollIntervalMs);
      if (outcome.changed) {
        try {
          options.onChange?.(feed.name);
        } catch (error) {
          report(feed.name, error);
        }
      }
      return outcome;
    });
  }

  /** A feed's timer fired: poll it if it is due (as stored), else wait for when it is. */
  async function tick(feed: ProxiedFeedConfig): Promise<void> {
    if (!started) return;
    try {
      const record = ownRecord(feed, await findOrigin(options.store.db, feed.name));
      // stop() may have come while the row was read: no new poll starts after it.
      if (!started) return;
      const due = record?.nextPollAt ?? 0;
      if (due > now()) return arm(feed, due);
      const outcome = await poll(feed);
      if ('error' in outcome) report(feed.name, outcome.error);
    } catch (error) {
      report(feed.name, error);
      if (!timers.has(feed.name)) arm(feed, now() + feed.pollIntervalMs);
    }
  }

  return {
    start() {
      if (started) return;
      started = true;
      for (const feed of feeds.values()) arm(feed, now());
    },
    async stop() {
      started = false;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      limiter.clear();
      await limiter.idle();
      await Promise.allSettled([...running]);
    },
    async refresh(name) {
      const feed = feedOf(name);
      const outcome = await track(poll(feed));
      if ('error' in outcome) throw outcome.error;
      return outcome.result;
    },
    document(name) {
      const feed = typeof name === 'string' ? feeds.get(name) : undefined;
      if (!feed) return Promise.resolve(null);
      const cached = documents.get(name);
      if (cached) return cached;
      const loading = findOrigin(options.store.db, name).then((record) => originDocument(feed, ownRecord(feed, record)));
      documents.set(name, loading);
      // A failed read is not remembered: the next request reads again.
      loading.catch(() => {
        if (documents.get(name) === loading) documents.delete(name);
      });
      return loading;
    },
    async status(name) {
      const feed = feedOf(name);
      return originStatus(feed, ownRecord(feed, await findOrigin(options.store.db, name)), options.baseUrl());
    },
    async list() {
      const records = await findOrigins(options.store.db, [...feeds.keys()]);
      const baseUrl = options.baseUrl();
      return [...feeds.values()].map((feed) => originStatus(feed, ownRecord(feed, records.get(feed.name)), baseUrl));
    },
  };
}
