/** Shapes shared by the feed pipeline (fetcher → encoding → parser → store) and its faces (spec 2, part A). */

export type FeedFormat = 'rss' | 'atom' | 'rdf' | 'json';

/** One entry as the parser reads it, before it is stored. */
export interface ParsedItem {
  /** guid / id as the feed gives it; identity falls back to link, then a content hash (store). */
  guid?: string;
  title: string;
  link?: string;
  author?: string;
  /** ISO 8601, when the feed dates the entry. */
  published?: string;
  updated?: string;
  summary?: string;
  /** Full HTML content when the feed carries it. */
  content?: string;
  categories: string[];
  /** Media files (podcast audio, video), absent when the item has none. */
  enclosures?: Enclosure[];
  /** How many enclosures past the parser's cap were left out (a hostile item had 10,000). */
  enclosuresOmitted?: number;
}

/** A media file attached to an entry (RSS <enclosure>, Atom rel="enclosure", Media RSS, JSON Feed attachments). */
export interface Enclosure {
  /** Absolute http(s). */
  url: string;
  /** MIME type, lower case, when the feed gives a valid one. */
  type?: string;
  /** Bytes, when the feed gives a positive whole number (feeds write 0 for "unknown"). */
  length?: number;
  /** Playing time in whole seconds (itunes:duration, media:content duration, JSON Feed duration_in_seconds). */
  durationSeconds?: number;
}

export interface ParsedFeed {
  format: FeedFormat;
  /** e.g. "RSS 2.0", "Atom 1.0", "JSON Feed 1.1" — shown by `workbench feeds parse`. */
  version?: string;
  title: string;
  link?: string;
  description?: string;
  /** RSS <ttl>, minutes. */
  ttlMinutes?: number;
  items: ParsedItem[];
}

export type FetchStatus = 'pending' | 'ok' | 'not_modified' | 'error';

/** A subscription as the API returns it. */
export interface Feed {
  id: number;
  url: string;
  title: string;
  siteUrl: string | null;
  category: string | null;
  unreadCount: number;
  fetchStatus: FetchStatus;
  lastError: string | null;
  /** Last attempt (any outcome), ISO 8601. */
  lastFetchedAt: string | null;
  /** Last 200 or 304. */
  lastSuccessAt: string | null;
  nextFetchAt: string | null;
  createdAt: string;
}

export interface Article {
  id: number;
  feedId: number;
  title: string;
  link: string | null;
  author: string | null;
  publishedAt: string | null;
  summary: string | null;
  categories: string[];
  read: boolean;
  /** Out of the unread counts until then (ISO 8601); null when not snoozed. */
  snoozedUntil: string | null;
}

export interface FullArticle extends Article {
  content: string | null;
  listIds: number[];
  /** Media files, in the feed's order (at most 50). */
  enclosures: Enclosure[];
}

export type Visibility = 'public' | 'private';

export interface List {
  id: number;
  title: string;
  visibility: Visibility;
  /** Present when public: the share token and the RSS URL built from it. */
  token?: string;
  rssUrl?: string;
  itemCount: number;
  createdAt: string;
}

export interface Cursor {
  before: string;
  before_id: number;
}

export interface ArticlePage {
  articles: Article[];
  nextCursor: Cursor | null;
}

export interface ArticleQuery {
  feed_id?: number;
  list_id?: number;
  category?: string;
  unread?: boolean;
  before?: string;
  before_id?: number;
  limit?: number;
}

export interface CategoryCount {
  name: string;
  count: number;
}

/** A feed found at a page or URL, for `POST /feeds/discover` and the 200 choice list of `POST /feeds`. */
export interface DiscoveredFeed {
  url: string;
  title: string | null;
  format: FeedFormat | null;
}
