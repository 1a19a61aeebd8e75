import type {Network} from '../net/safe-lookup.js';
import type {Ingestor, IngestorInput, IngestorPatch, IngestorTestRequest, IngestorTestResult} from './ingestors/types.js';
import type {ArticlePage, ArticleQuery, CategoryCount, DiscoveredFeed, Feed, FullArticle, List, ParsedFeed, Visibility} from './types.js';

/** What one HTTP fetch of a feed URL gave (source/feeds/fetcher). */
export interface FetchResult {
  status: 'ok' | 'not_modified';
  /** Raw body bytes (empty for not_modified), capped at the body limit. */
  body: Buffer;
  contentType: string | null;
  /** Validators exactly as the origin sent them, to send back next time. */
  etag: string | null;
  lastModified: string | null;
  /** URL after redirects. */
  finalUrl: string;
  /** Set when a 301/308 chain moved the feed: store it as the feed's new URL. */
  permanentUrl: string | null;
  /** Seconds from Cache-Control max-age / Expires / Retry-After, when given. */
  maxAgeSeconds: number | null;
  retryAfterSeconds: number | null;
  /**
   * Whether the fetch reached a public address on the way (source/net/address-policy.ts): links
   * found in the body must then lead to public addresses only. Absent means false.
   */
  viaPublic?: boolean;
}

export interface FetchOptions {
  etag?: string | null;
  lastModified?: string | null;
  timeoutMs?: number; // default 20 s
  maxBytes?: number; // default 15 MB
  maxRedirects?: number; // default 5
  signal?: AbortSignal;
  /**
   * Whether the URL may name a private or loopback host (default true: a URL the user typed or
   * subscribed to). False for a URL found at a public address (a discovered link). Link-local
   * and metadata addresses are refused either way; see source/net/address-policy.ts.
   */
  allowPrivate?: boolean;
  /** Name resolution and dialling (tests inject one; default the system's). */
  network?: Network;
}

/** One feed's part of refreshAll: its new articles, or why its poll failed. */
export type FeedRefreshOutcome = {id: number; newArticles: number} | {id: number; error: string};

/**
 * The reader's logic: every face (fastify routes, `workbench feeds ...` in-process, the Feeds
 * pane) calls these. Errors are WorkbenchError with codes mapped to HTTP by servers/reader.
 */
export interface ReaderService {
  listFeeds(): Promise<Feed[]>;
  getFeed(id: number): Promise<Feed>;
  /** Subscribes; a page linking several feeds answers {choices} instead (200 in HTTP). */
  subscribe(url: string, options?: {category?: string | null}): Promise<{feed: Feed} | {choices: DiscoveredFeed[]}>;
  discover(url: string): Promise<DiscoveredFeed[]>;
  unsubscribe(id: number): Promise<void>;
  /** Polls now; concurrent calls for one feed share one fetch. */
  refresh(id: number): Promise<{newArticles: number}>;
  /** Polls every feed (or those of `ids`) one at a time; a feed that fails is one outcome and the rest go on. */
  refreshAll(ids?: number[]): Promise<FeedRefreshOutcome[]>;
  markAllRead(feedId: number): Promise<{marked: number}>;
  listArticles(query: ArticleQuery): Promise<ArticlePage>;
  getArticle(id: number): Promise<FullArticle>;
  setRead(id: number, read: boolean): Promise<FullArticle>;
  /** null unsnoozes; a time in the past is invalid_argument. */
  snooze(id: number, until: string | null): Promise<FullArticle>;
  categories(feedId?: number): Promise<CategoryCount[]>;
  listLists(): Promise<List[]>;
  createList(title: string, visibility: Visibility): Promise<List>;
  deleteList(id: number): Promise<void>;
  addToList(listId: number, articleId: number): Promise<List>;
  removeFromList(listId: number, articleId: number): Promise<List>;
  /** RSS 2.0 of a public list; unknown or private token is not_found. */
  listRss(token: string): Promise<string>;
  importOpml(xml: string): Promise<{added: number; skipped: number; failed: {url: string; error: string}[]}>;
  exportOpml(): Promise<string>;
  /** Ingestors (source/feeds/ingestors): credential fields of `config` read REDACTED in every answer. */
  listIngestors(): Promise<Ingestor[]>;
  getIngestor(id: number): Promise<Ingestor>;
  /** Validates the config for its kind (nothing is fetched) and creates the ingestor and its feed. */
  createIngestor(input: IngestorInput): Promise<Ingestor>;
  updateIngestor(id: number, patch: IngestorPatch): Promise<Ingestor>;
  /** Removes the ingestor, its feed and its articles. */
  deleteIngestor(id: number): Promise<void>;
  /** One fetch cycle, scored, nothing stored: kept and dropped statuses with scores and reasons. */
  testIngestor(request: IngestorTestRequest): Promise<IngestorTestResult>;
  close(): Promise<void>;
}

export type {ParsedFeed};
