import {fetchFeed} from '../feeds/fetcher/index.js';
import type {Network} from '../net/index.js';
import {createChannels} from './channels/index.js';
import {createOriginPoller} from './origins/index.js';
import {createRenderCache} from './render/index.js';
import {openGatewayStore} from './store/index.js';
import type {FeedDocument, GatewayConfig, GatewayService, RenderedFeed, Representation} from './types.js';
import {createHub, type Hub} from './websub/index.js';

export interface GatewayServiceOptions {
  /** SQLite path or postgres:// / mysql:// URL; default `<WORKBENCH_HOME>/gateway.sqlite`. */
  connection?: string;
  config: GatewayConfig;
  /** Where the gateway is reached (self, hub and feed URLs); read when needed, so a server can learn its port after listening. */
  baseUrl: () => string;
  now?: () => number;
  /** The origin fetch (default the reader's fetcher with its address policy). */
  fetch?: typeof fetchFeed;
  /** Let WebSub subscribers' callbacks be private or loopback addresses (tests, a LAN). */
  allowPrivateCallbacks?: boolean;
  /** Every URL the gateway is reached at (public and listening): WebSub callbacks there are refused. Default baseUrl() alone. */
  ownUrls?: () => string[];
  /** How the hub resolves and dials subscribers (default the system's; tests inject names). */
  network?: Network;
  /** How often expired channels are purged once started (default a minute). */
  purgeIntervalMs?: number;
  /** A background failure (a poll, a purge) for the server's log; the feed's status records a poll's too. */
  onError?: (what: string, error: unknown) => void;
}

/** A served document and its bytes in one representation. */
export interface Served {
  document: FeedDocument;
  rendered: RenderedFeed;
}

/** The service as the server holds it: the contract, the hub for its routes, and the bytes at hand without I/O for the hot path. */
export interface LocalGatewayService extends GatewayService {
  readonly hub: Hub;
  /** Where the gateway is reached now (no trailing slash). */
  readonly baseUrl: () => string;
  /** `/<name>` rendered when its document is in memory (no I/O); undefined: ask render(). */
  renderedNow(name: string, representation: Representation): Served | undefined;
}

/** A document in memory, with its representations as served so far. */
interface Kept {
  document: FeedDocument;
  until: number;
  baseUrl: string;
  served: Partial<Record<Representation, Served>>;
}

// A document read from the store is kept this long (besides being dropped on every change), so
// the hot path does no I/O, and anything no change event reports (a channel's expiry, a failed
// poll's stale flag) shows within this time.
const DOCUMENT_MEMO_MS = 1000;
// Channels are many; only the documents of this many names are kept.
const DOCUMENT_MEMO_MAX = 1000;
const DEFAULT_PURGE_INTERVAL_MS = 60_000;

/**
 * The gateway's parts joined (source/gateway/types.ts says what each one is): `/<name>` is a
 * proxied feed if the config names it, else a live channel; either's change drops the document
 * and its bytes and is pushed to WebSub subscribers.
 */
export async function createGatewayService(options: GatewayServiceOptions): Promise<LocalGatewayService> {
  const now = options.now ?? Date.now;
  const {config, baseUrl} = options;
  const proxied = new Set(config.feeds.map((feed) => feed.name));
  const store = await openGatewayStore(options.connection);

  const memo = new Map<string, Kept>();
  const loading = new Map<string, Promise<FeedDocument | null>>();
  const forget = (name: string) => {
    memo.delete(name);
    loading.delete(name);
  };
  const changed = (name: string) => {
    forget(name);
    cache.forget(name);
    hub.publish(name);
  };
  const failed = (what: string, error: unknown) => options.onError?.(what, error);

  const channels = createChannels({store, baseUrl, now, onChange: changed});
  const poller = createOriginPoller({
    store,
    config,
    baseUrl,
    now,
    fetch: options.fetch,
    onChange: changed,
    // A failed poll marks the copy stale: the next request reads the flag from the store.
    onError: (name: string, error: unknown) => {
      forget(name);
      failed(`poll ${name}`, error);
    },
  });
  const cache = createRenderCache();
  const hub = createHub({
    store,
    baseUrl,
    now,
    allowPrivate: options.allowPrivateCallbacks,
    ownUrls: options.ownUrls,
    network: options.network,
    onError: (message) => failed('websub', message),
    render: async (name, representation) => (await render(name, representation))?.rendered ?? null,
    topicExists: async (name) => (await documentOf(name)) !== null,
  });

  function load(name: string): Promise<FeedDocument | null> {
    const running = loading.get(name);
    if (running) return running;
    const reading = (proxied.has(name) ? poller.document(name) : channels.document(name)).then(
      (document) => {
        // A change while reading dropped this load: what it read may be older than the change.
        if (loading.get(name) !== reading) return document;
        loading.delete(name);
        if (document) remember(name, document);
        else memo.delete(name);
        return document;
      },
      (error: unknown) => {
        if (loading.get(name) === reading) loading.delete(name);
        memo.delete(name);
        throw error;
      },
    );
    loading.set(name, reading);
    return reading;
  }

  function remember(name: string, document: FeedDocument): void {
    memo.delete(name);
    if (memo.size >= DOCUMENT_MEMO_MAX) memo.delete(memo.keys().next().value!);
    memo.set(name, {document, until: now() + DOCUMENT_MEMO_MS, baseUrl: '', served: {}});
  }

  function memoized(name: string): Kept | undefined {
    const kept = memo.get(name);
    if (kept === undefined) return undefined;
    if (kept.until > now()) return kept;
    memo.delete(name);
    return undefined;
  }

  async function documentOf(name: string): Promise<FeedDocument | null> {
    return memoized(name)?.document ?? load(name);
  }

  // The same Served object while the document and base URL are: the server keys its headers on it.
  // A kept document up to one more memo time past its own is served while it is read anew, so a
  // busy feed's hot path never waits and never goes cold each second; an older one is dropped (a
  // quiet feed is read anew before it is served). A change drops it at once, and a read that
  // fails or finds the name gone drops it too.
  function renderedNow(name: string, representation: Representation): Served | undefined {
    const kept = memo.get(name);
    if (kept === undefined) return undefined;
    const time = now();
    if (kept.until <= time) {
      if (kept.until + DOCUMENT_MEMO_MS <= time) {
        memo.delete(name);
        return undefined;
      }
      if (!loading.has(name)) load(name).catch(() => {});
    }
    const base = baseUrl();
    if (kept.baseUrl !== base) {
      kept.baseUrl = base;
      kept.served = {};
    }
    return (kept.served[representation] ??= {document: kept.document, rendered: cache.get(kept.document, representation, {baseUrl: base})});
  }

  async function render(name: string, representation: Representation): Promise<Served | null> {
    const document = await documentOf(name);
    return document && (renderedNow(name, representation) ?? {document, rendered: cache.get(document, representation, {baseUrl: baseUrl()})});
  }

  let purger: NodeJS.Timeout | undefined;
  let closing: Promise<void> | undefined;

  return {
    store,
    config,
    hub,
    baseUrl,
    listFeeds: () => poller.list(),
    feedStatus: (name) => poller.status(name),
    async refresh(name) {
      try {
        return await poller.refresh(name);
      } finally {
        forget(name);
      }
    },
    document: documentOf,
    render,
    renderedNow,
    createChannel: (input) => channels.create(input),
    postItem: (id, token, item) => channels.post(id, token, item),
    deleteChannel: (id, token) => channels.remove(id, token),
    listChannels: () => channels.list(),
    start() {
      if (purger) return;
      poller.start();
      purger = setInterval(() => {
        channels.purgeExpired().catch((error: unknown) => failed('purging expired channels', error));
      }, options.purgeIntervalMs ?? DEFAULT_PURGE_INTERVAL_MS);
      purger.unref();
    },
    close() {
      closing ??= (async () => {
        clearInterval(purger);
        await poller.stop();
        await hub.close();
        await store.close();
      })();
      return closing;
    },
  };
}
