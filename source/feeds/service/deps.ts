import type {FetchOptions, FetchResult} from '../contracts.js';
import type {DiscoveredFeed, ParsedFeed, ParsedItem} from '../types.js';

/** What decides when a feed is polled next (source/feeds/poller's nextCheckAt). */
export interface ScheduleInput {
  now: Date;
  intervalMinutes: number;
  /** 0 after a success; the scheduler backs off as it grows. */
  consecutiveFailures: number;
  ttlMinutes?: number | null;
  maxAgeSeconds?: number | null;
  retryAfterSeconds?: number | null;
}

/**
 * The pipeline stages the service calls, injected so tests can pass stand-ins; the defaults
 * (default-deps.ts) are the real fetcher, discovery, parser and scheduler.
 */
export interface ReaderDeps {
  fetchFeed(url: string, options?: FetchOptions): Promise<FetchResult>;
  discoverFeeds(url: string): Promise<DiscoveredFeed[]>;
  /** Throws WorkbenchError not_a_feed when the body is no feed. */
  parseFeed(body: Buffer | string, contentType?: string): ParsedFeed;
  /** Identity of an item, stable across polls (guid, else link, else a content hash). */
  articleKey(item: ParsedItem): string;
  nextCheckAt(input: ScheduleInput): Date;
  now(): Date;
}
