import type {FetchOptions, FetchResult} from '../contracts.js';
import type {ParseOptions} from '../parser/parse-feed.js';
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
  /**
   * Throws WorkbenchError not_a_feed when the body is no feed. `options.url` is the document's
   * address after redirects: relative item and site links are resolved against it (and xml:base).
   */
  parseFeed(body: Buffer | string, contentType?: string, options?: ParseOptions): ParsedFeed;
  /** Identity of an item, stable across polls (guid, else link, else a content hash). */
  articleKey(item: ParsedItem): string;
  nextCheckAt(input: ScheduleInput): Date;
  now(): Date;
}
