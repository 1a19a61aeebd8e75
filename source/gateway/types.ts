/**
 * The feed gateway's contract (spec 2, part B): proxied origin feeds served by name, polled at an
 * interval and refreshed by a webhook; short-lived channels whose posted items are served as a
 * feed; every feed also pushed to WebSub subscribers. Each folder of source/gateway implements one
 * part of it (config/, store/, origins/, channels/, render/, websub/), service.ts joins them, and
 * servers/gateway, the CLI and the TUI are faces over GatewayService.
 */
import type {RenderedFeed, Representation, FeedItem as SharedFeedItem, SyndicatedFeed} from '../syndication/index.js';
import type {Store} from '../storage/index.js';

// ——— Configuration ———

/** A proxied feed from `.workbench.kdl`: `gateway { feed "<name>" origin="<url>" poll-interval="10m" }`. */
export interface ProxiedFeedConfig {
  /** The path it is served at (`GET /<name>`): FEED_NAME_PATTERN, and not a reserved word (RESERVED_NAMES). */
  name: string;
  /** The origin feed's http(s) URL. */
  origin: string;
  /** How often the origin is polled (default DEFAULT_POLL_INTERVAL_MS, at least MIN_POLL_INTERVAL_MS). */
  pollIntervalMs: number;
  /** A title to serve instead of the origin's. */
  title?: string;
}

export interface GatewayConfig {
  feeds: ProxiedFeedConfig[];
}

export const FEED_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/i;
/** First path segments the gateway's own routes take. */
export const RESERVED_NAMES = new Set(['api', 'health', 'favicon.ico', 'robots.txt']);
export const DEFAULT_POLL_INTERVAL_MS = 10 * 60_000;
export const MIN_POLL_INTERVAL_MS = 10_000;
export const DEFAULT_GATEWAY_PORT = 7701;

// ——— What is served ———

/** One entry of a served feed: an origin's item, re-rendered, or a post to a channel (id: the origin's guid/id, else link, else a content hash; a channel item's own id). */
export type FeedItem = SharedFeedItem;

/** A feed as the gateway holds it, ready to render in any representation (source/syndication renders it). */
export interface FeedDocument extends SyndicatedFeed {
  kind: 'proxied' | 'channel';
  /** The path segment: a proxied feed's name or a channel's id. */
  name: string;
  /** sha-256 (hex) of title, description, site and items — never of build dates: the strong ETag. See documentVersion(). */
  version: string;
  /** Cache-Control max-age: the poll interval for a proxied feed, 60 for a channel. */
  maxAgeSeconds: number;
  /** The origin failed since the last good poll (proxied feeds): X-Feed-Stale: true. */
  stale: boolean;
}

/** RSS 2.0 is the default (no negotiation); Atom by `?format=atom`; HTML for a browser asking text/html. */
export type {Representation, RenderedFeed};

/** Where the gateway is reached, for self and hub links. */
export interface LinkBase {
  /** e.g. `http://127.0.0.1:7701` (no trailing slash). */
  baseUrl: string;
}

// ——— Proxied feeds ———

/** What `POST /api/feeds/<name>/refresh` answers with 200 (spec). */
export interface RefreshResult {
  id: string;
  /** ok: new content (or first copy); not-modified: the origin said 304 or sent the same items; skipped: no fetch was made (message says why, e.g. the origin's Retry-After). */
  status: 'ok' | 'not-modified' | 'skipped';
  message?: string;
}

/** `GET /api/feeds/<name>/status`: read from the store, never from the origin. ISO 8601 times or null. */
export interface ProxiedFeedStatus {
  name: string;
  origin: string;
  title: string | null;
  pollIntervalSeconds: number;
  itemCount: number;
  stale: boolean;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  lastError: string | null;
  nextPollAt: string | null;
  /** `<baseUrl>/<name>`. */
  feedUrl: string;
}

// ——— Channels ———

export interface NewChannel {
  title: string;
  description?: string;
  /** Default 168, clamped to 1..720 (spec). */
  ttlHours?: number;
}

/** `POST /api/channels` answers 201 with this (spec field names); write_token is shown once and stored hashed. */
export interface CreatedChannel {
  id: string;
  write_token: string;
  feed_url: string;
  /** ISO 8601. */
  expires_at: string;
}

export interface NewChannelItem {
  title: string;
  link?: string;
  description?: string;
}

/** A channel as lists show it (never its token). */
export interface ChannelSummary {
  id: string;
  title: string;
  description: string | null;
  itemCount: number;
  createdAt: string;
  expiresAt: string;
  feedUrl: string;
}

export const CHANNEL_TTL_DEFAULT_HOURS = 168;
export const CHANNEL_TTL_MIN_HOURS = 1;
export const CHANNEL_TTL_MAX_HOURS = 720;
/** An item's JSON body may be this big; one byte more answers 413 (spec). */
export const CHANNEL_ITEM_MAX_BYTES = 64 * 1024;
export const CHANNEL_MAX_AGE_SECONDS = 60;

// ——— The service every face calls ———

export interface GatewayService {
  readonly store: Store;
  readonly config: GatewayConfig;
  /** The proxied feeds with their poll status (no origin is contacted). */
  listFeeds(): Promise<ProxiedFeedStatus[]>;
  /** One proxied feed's status; not_found for an unknown name. */
  feedStatus(name: string): Promise<ProxiedFeedStatus>;
  /** Polls now, past the interval, with conditional headers; concurrent calls for one feed share one fetch. feed_unreachable / not_a_feed when the origin fails (the last good copy stays, marked stale). */
  refresh(name: string): Promise<RefreshResult>;
  /** The document served at `/<name>` (a proxied feed or a live channel), or null. */
  document(name: string): Promise<FeedDocument | null>;
  /** `/<name>` rendered (bytes cached per document version and representation), or null. */
  render(name: string, representation: Representation): Promise<{document: FeedDocument; rendered: RenderedFeed} | null>;
  createChannel(input: NewChannel): Promise<CreatedChannel>;
  /** unauthorized without a token, forbidden with a wrong one, not_found unknown or expired, payload_too_large, invalid_body. */
  postItem(channelId: string, token: string | undefined, item: NewChannelItem): Promise<void>;
  deleteChannel(channelId: string, token: string | undefined): Promise<void>;
  listChannels(): Promise<ChannelSummary[]>;
  /** Starts the origin poller and the expired-channel purge. */
  start(): void;
  /** Stops polling (in-flight polls finish), the hub's deliveries, then the store. */
  close(): Promise<void>;
}
