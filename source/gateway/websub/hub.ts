import {WorkbenchError} from '../../core/errors.js';
import {targetRefusal, type Network} from '../../net/index.js';
import type {Store} from '../../storage/index.js';
import {activeSubscriptions, purgeExpiredSubscriptions, removeSubscription, saveSubscription, subscribersOf} from '../store/subscription-rows.js';
import type {RenderedFeed, Representation} from '../types.js';
import {concurrencyLimit} from './concurrency.js';
import {deliver, type Delivery} from './deliver.js';
import type {HubOutbound} from './outbound.js';
import {readSubscriptionRequest, type SubscriptionRequest} from './subscription-request.js';
import {hubUrlOf, topicUrl, type TopicRepresentation} from './topic-url.js';
import {verifyIntent} from './verify-intent.js';
import {reachesGateway} from './own-origin.js';

export interface HubOptions {
  store: Store;
  /** Where the gateway is reached (no trailing slash): topics are `<baseUrl>/<name>[?format=atom]`, the hub `<baseUrl>/api/websub`. */
  baseUrl: () => string;
  now?: () => number;
  /** The current bytes of `/<name>` in a representation, or null when it is gone. */
  render: (name: string, representation: Representation) => Promise<RenderedFeed | null>;
  /** Whether `/<name>` is served (a configured feed or a live channel); default: every well-formed name. */
  topicExists?: (name: string) => Promise<boolean>;
  /**
   * Every URL the gateway is reached at (its public URL, its listening address): a callback there
   * is refused, whatever allowPrivate says. Default: baseUrl() alone.
   */
  ownUrls?: () => string[];
  /** Callbacks on private and loopback addresses are allowed (the server passes true when bound to loopback). Default false. */
  allowPrivate?: boolean;
  network?: Network;
  /** Deadline of one verification or delivery (default 10 s). */
  fetchTimeoutMs?: number;
  /** Publishes of one name within this window make one delivery (default 100 ms). */
  coalesceMs?: number;
  /** Waits before each retry of a failed delivery (default 1 s, 10 s, 60 s); then it is dropped. */
  retryDelaysMs?: number[];
  /** A verification or delivery that failed, in one line (the server logs it). */
  onError?: (message: string) => void;
}

/** A verified, unexpired subscription as the hub lists it (never its secret). */
export interface HubSubscription {
  topic: string;
  callback: string;
  leaseSeconds: number;
  /** ISO 8601. */
  expiresAt: string;
  createdAt: string;
  /** Deliveries carry X-Hub-Signature. */
  signed: boolean;
}

export interface Hub {
  /** A subscriber's form (WebSub §5.1): invalid_argument when it is malformed; resolves (202) and verifies the intent in the background. */
  request(form: Record<string, string>): Promise<void>;
  /** The content of `/<name>` changed: its subscribers get the new representation (coalesced, retried). */
  publish(name: string): void;
  subscriptions(): Promise<HubSubscription[]>;
  /** Resolves when no verification or delivery is in flight or waiting for a retry. */
  idle(): Promise<void>;
  /** Stops: in-flight exchanges are aborted, pending retries dropped. */
  close(): Promise<void>;
}

export const DEFAULT_HUB_TIMEOUT_MS = 10_000;
export const DEFAULT_COALESCE_MS = 100;
export const DEFAULT_RETRY_DELAYS_MS = [1_000, 10_000, 60_000];
/** Outbound exchanges (verifications and deliveries) in flight at once: a feed with many subscribers, or a flood of requests, does not open a socket each. */
export const HUB_MAX_CONCURRENT_EXCHANGES = 16;

interface Queued {
  delivery: Delivery;
  expiresAt: number;
}

/** One subscriber's deliveries: at most one POST in flight, and the next one always the newest content. */
interface SubscriberQueue {
  next: Queued | null;
}

interface NameState {
  timer?: NodeJS.Timeout;
  rendering: boolean;
  again: boolean;
}

/** The gateway as a WebSub hub (W3C Recommendation) for its own feeds and channels. */
export function createHub(options: HubOptions): Hub {
  const db = options.store.db;
  const now = options.now ?? Date.now;
  const topicExists = options.topicExists ?? (async () => true);
  const ownUrls = options.ownUrls ?? (() => [options.baseUrl()]);
  const coalesceMs = options.coalesceMs ?? DEFAULT_COALESCE_MS;
  const retryDelays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const report = options.onError ?? (() => undefined);
  const stop = new AbortController();
  const outbound: HubOutbound = {
    allowPrivate: options.allowPrivate ?? false,
    network: options.network,
    timeoutMs: options.fetchTimeoutMs ?? DEFAULT_HUB_TIMEOUT_MS,
    signal: stop.signal,
  };
  const tasks = new Set<Promise<void>>();
  const queues = new Map<string, SubscriberQueue>();
  const names = new Map<string, NameState>();
  const exchange = concurrencyLimit(HUB_MAX_CONCURRENT_EXCHANGES);
  let closed = false;

  const track = (task: Promise<void>): void => {
    const settled = task.catch((error: unknown) => report(`websub: ${String((error as Error)?.message ?? error)}`)).finally(() => tasks.delete(settled));
    tasks.add(settled);
  };

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        stop.signal.removeEventListener('abort', done);
        resolve();
      }
      stop.signal.addEventListener('abort', done, {once: true});
    });

  async function confirm(request: SubscriptionRequest): Promise<void> {
    let confirmed = false;
    try {
      confirmed = await exchange(() => (closed ? Promise.resolve(false) : verifyIntent(request, outbound)));
    } catch (error) {
      report(`websub: verifying ${request.mode} of ${request.callback.href} failed: ${(error as Error).message}`);
    }
    if (!confirmed) return;
    if (request.mode === 'subscribe') {
      await saveSubscription(db, {topic: request.topic.url, callback: request.callback.href, secret: request.secret, leaseSeconds: request.leaseSeconds}, now());
    } else {
      await removeSubscription(db, request.topic.url, request.callback.href);
    }
  }

  async function drain(key: string, queue: SubscriberQueue): Promise<void> {
    let current: Queued | null = null;
    let failures = 0;
    while (!closed) {
      if (queue.next) {
        current = queue.next;
        queue.next = null;
        failures = 0;
      }
      if (!current) break;
      if (current.expiresAt <= now()) {
        current = null;
        continue;
      }
      const {delivery} = current;
      const outcome = await exchange(() => deliver(delivery, outbound));
      if (outcome.kind === 'failed' && failures < retryDelays.length) {
        await pause(retryDelays[failures++]!);
        continue;
      }
      current = null;
      if (outcome.kind === 'gone') {
        // 410 Gone: the subscriber ended it (WebSub leaves this to the hub; every hub honours it).
        queue.next = null;
        await removeSubscription(db, delivery.topic, delivery.callback);
        break;
      }
      if (outcome.kind === 'failed' || outcome.kind === 'refused') report(`websub: delivery to ${delivery.callback} dropped: ${outcome.reason}`);
    }
    queues.delete(key);
  }

  function enqueue(queued: Queued): void {
    const key = `${queued.delivery.topic}\n${queued.delivery.callback}`;
    const queue = queues.get(key);
    // A POST in flight or a retry waiting: it picks this newer content up next.
    if (queue) {
      queue.next = queued;
      return;
    }
    const fresh: SubscriberQueue = {next: queued};
    queues.set(key, fresh);
    track(drain(key, fresh));
  }

  async function fanOut(name: string): Promise<void> {
    const at = now();
    await purgeExpiredSubscriptions(db, at);
    const baseUrl = options.baseUrl();
    const topics: Record<TopicRepresentation, string> = {rss: topicUrl(baseUrl, name, 'rss'), atom: topicUrl(baseUrl, name, 'atom')};
    const subscribers = await subscribersOf(db, [topics.rss, topics.atom], at);
    if (subscribers.length === 0) return;
    const contents = new Map<string, RenderedFeed | null>();
    for (const subscriber of subscribers) {
      const representation: TopicRepresentation = subscriber.topic === topics.atom ? 'atom' : 'rss';
      if (!contents.has(representation)) contents.set(representation, await options.render(name, representation));
      const content = contents.get(representation);
      if (!content || closed) continue;
      enqueue({delivery: {callback: subscriber.callback, topic: subscriber.topic, hub: hubUrlOf(baseUrl), secret: subscriber.secret, content}, expiresAt: subscriber.expiresAt});
    }
  }

  function schedule(name: string, state: NameState): void {
    state.timer = setTimeout(() => {
      state.timer = undefined;
      state.rendering = true;
      track(
        fanOut(name).finally(() => {
          state.rendering = false;
          if (state.again && !closed) {
            state.again = false;
            schedule(name, state);
          } else names.delete(name);
        }),
      );
    }, coalesceMs);
  }

  return {
    async request(form) {
      if (closed) throw new WorkbenchError('invalid_argument', 'the hub is shutting down');
      const request = readSubscriptionRequest(form, options.baseUrl());
      // Unsubscribing from a feed that is gone (an expired channel) is still allowed.
      if (request.mode === 'subscribe' && !(await topicExists(request.topic.name))) {
        throw new WorkbenchError('invalid_argument', `hub.topic ${request.topic.url} is not a feed this gateway serves`);
      }
      if (await reachesGateway(request.callback, ownUrls(), options.network)) {
        throw new WorkbenchError('invalid_argument', `hub.callback ${request.callback.href} leads back to this gateway; a callback must be the subscriber's own server`);
      }
      // Said now rather than after a silent failed verification; the GET is checked again at connect time.
      const refusal = await targetRefusal(request.callback, {allowPrivate: outbound.allowPrivate}, options.network);
      if (refusal) throw new WorkbenchError('invalid_argument', `hub.callback ${refusal.message}`);
      track(confirm(request));
    },

    publish(name) {
      if (closed) return;
      let state = names.get(name);
      if (!state) names.set(name, (state = {rendering: false, again: false}));
      if (state.timer || state.again) return;
      // Rendering now may read the content from before this change: render once more after it.
      if (state.rendering) state.again = true;
      else schedule(name, state);
    },

    async subscriptions() {
      const at = now();
      await purgeExpiredSubscriptions(db, at);
      return (await activeSubscriptions(db, at)).map((row) => ({
        topic: row.topic,
        callback: row.callback,
        leaseSeconds: row.leaseSeconds,
        expiresAt: new Date(row.expiresAt).toISOString(),
        createdAt: new Date(row.createdAt).toISOString(),
        signed: row.secret !== null,
      }));
    },

    async idle() {
      while (tasks.size > 0 || [...names.values()].some((state) => state.timer)) {
        await Promise.allSettled([...tasks]);
        if ([...names.values()].some((state) => state.timer)) await new Promise((resolve) => setTimeout(resolve, coalesceMs));
      }
    },

    async close() {
      closed = true;
      for (const state of names.values()) clearTimeout(state.timer);
      names.clear();
      stop.abort();
      while (tasks.size > 0) await Promise.allSettled([...tasks]);
    },
  };
}
