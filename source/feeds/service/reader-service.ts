import type {ReaderService} from '../contracts.js';
import {singleFlight} from '../poller/index.js';
import {categoryCounts, deleteFeedRow, dueFeeds, feedsWithUnread, findFeedRow, ingestorOfFeed, markFeedRead, openStore, type Store} from '../store/index.js';
import {WorkbenchError} from '../../core/errors.js';
import {addToList, createList, deleteList, listLists, removeFromList} from './lists.js';
import {getArticle, listArticles, setRead, snooze} from './articles.js';
import type {ReaderContext} from './context.js';
import {defaultReaderDeps} from './default-deps.js';
import type {ReaderDeps} from './deps.js';
import {listRss} from './list-rss.js';
import {exportOpml, importOpml} from './opml.js';
import {feedListCache} from './feed-list-cache.js';
import {pollFeed} from './refresh.js';
import {refreshAll} from '../refresh-all.js';
import {discover, subscribe} from './subscribe.js';
import {name, optionalName, positiveId, visibility} from './validate.js';
import {homedir} from 'node:os';
import type {Network} from '../../net/safe-lookup.js';
import {openModelJudge} from '../ingestors/scoring/index.js';
import {ingestorService} from '../ingestors/service/ingestor-service.js';
import {secretBox} from '../ingestors/service/secrets.js';
import type {CycleSummary, RelevanceJudge} from '../ingestors/types.js';

export interface ReaderServiceOptions {
  /** SQLite path, `postgres://…` or `mysql://…`; default `<WORKBENCH_HOME>/reader.sqlite`. */
  connection?: string;
  /** Stand-ins for pipeline stages (tests); the rest are the real ones. */
  deps?: Partial<ReaderDeps>;
  /** Where the reader is reachable, for list RSS URLs; a function when known only after listen. */
  baseUrl?: string | (() => string);
  /** An already open store (the service closes it on close()). */
  store?: Store;
  ingestors?: {
    /** The model ingestors with llmEnabled ask (default: the agent module's endpoint, as `workbench agent` finds it where the reader runs). */
    openJudge?: () => Promise<RelevanceJudge>;
    /** The key that seals ingestor credentials (default `<WORKBENCH_HOME>/secrets/reader.key`). */
    keyFile?: string;
    /** Name resolution and dialling for the networks (tests). */
    network?: Network;
    /** Called after an ingestor is created or changed (the server runs its scheduler's round now). */
    onChange?: () => void;
  };
}

/** The service plus what the background poller needs from it. */
export interface LocalReaderService extends ReaderService {
  /** Feeds whose next check is due at `now`, most overdue first. */
  dueFeeds(now: Date, limit: number): Promise<{id: number; url: string}[]>;
  readonly store: Store;
  /** Ingestors whose fetch or digest is due at `now` (the scheduler). */
  dueIngestors(now: Date, limit: number): Promise<number[]>;
  /** One ingestor cycle now: the fetch when due (`force`: anyway), the digest when its boundary passed. */
  runIngestor(id: number, options?: {force?: boolean}): Promise<CycleSummary>;
}

export const DEFAULT_BASE_URL = 'http://127.0.0.1:7700';

/** The reader's logic over its database; every face (HTTP, CLI in-process, TUI) calls this. */
export async function createReaderService(options: ReaderServiceOptions = {}): Promise<LocalReaderService> {
  const store = options.store ?? (await openStore(options.connection));
  const deps: ReaderDeps = {...defaultReaderDeps, ...options.deps};
  const baseUrl = options.baseUrl ?? DEFAULT_BASE_URL;
  const base = () => (typeof baseUrl === 'function' ? baseUrl() : baseUrl).replace(/\/+$/, '');
  const context: ReaderContext = {
    store,
    deps,
    rssUrl: (token) => `${base()}/api/v1/lists/${token}.xml`,
    nowMs: () => deps.now().getTime(),
  };
  // Two refreshes of one feed (two clicks, or a click and the poller) share one fetch.
  const refreshes = singleFlight<number, {newArticles: number}>();
  const feedList = feedListCache(store);
  const ingestors = ingestorService({
    store,
    box: secretBox(options.ingestors?.keyFile),
    nowMs: context.nowMs,
    cycle: {store, now: deps.now, network: options.ingestors?.network, openJudge: options.ingestors?.openJudge ?? defaultJudge},
  });
  // A new or changed ingestor is due at once: the scheduler is told, so it does not wait a round.
  const changed = <T>(value: T): T => {
    options.ingestors?.onChange?.();
    return value;
  };
  // A refresh and the scheduler running one ingestor at once share one cycle.
  const ingestorRuns = singleFlight<number, CycleSummary>();
  const feed = async (id: number) => {
    const [found] = await feedsWithUnread(store.db, store.dialect, context.nowMs(), positiveId(id, 'feed id'));
    if (!found) throw new WorkbenchError('not_found', `no feed ${id}`);
    return found;
  };

  const service: LocalReaderService = {
    store,
    listFeeds: async () => feedList(context.nowMs()),
    getFeed: feed,
    subscribe: async (url, subscribeOptions) => subscribe(context, requireString(url, 'url'), optionalName(subscribeOptions?.category, 'category')),
    discover: async (url) => discover(context, requireString(url, 'url')),
    async unsubscribe(id) {
      const owner = await ingestorOfFeed(store.db, positiveId(id, 'feed id'));
      if (owner !== undefined)
        throw new WorkbenchError('conflict', `feed ${id} belongs to ingestor ${owner}: remove it with DELETE /api/v1/ingestors/${owner} (workbench ingestors remove ${owner})`);
      if (!(await deleteFeedRow(store.db, positiveId(id, 'feed id'), context.nowMs()))) throw new WorkbenchError('not_found', `no feed ${id}`);
    },
    async refresh(id) {
      // An ingestor's feed is refreshed by running its cycle now.
      const owner = await ingestorOfFeed(store.db, positiveId(id, 'feed id'));
      if (owner !== undefined) return {newArticles: (await ingestorRuns.run(owner, () => ingestors.runIngestor(owner, {force: true}))).added};
      return refreshes.run(id, () => pollFeed(context, id));
    },
    refreshAll: (ids) => refreshAll(service, ids),
    async markAllRead(feedId) {
      if (!(await findFeedRow(store.db, positiveId(feedId, 'feed id')))) throw new WorkbenchError('not_found', `no feed ${feedId}`);
      return {marked: await markFeedRead(store.db, store.dialect, feedId)};
    },
    listArticles: async (query) => listArticles(context, query ?? {}),
    getArticle: async (id) => getArticle(context, id),
    setRead: async (id, read) => setRead(context, id, read),
    snooze: async (id, until) => snooze(context, id, until),
    async categories(feedId) {
      if (feedId !== undefined) await feed(feedId);
      return categoryCounts(store.db, feedId);
    },
    listLists: async () => listLists(context),
    createList: async (title, kind) => createList(context, name(title, 'title'), visibility(kind)),
    deleteList: async (id) => deleteList(context, positiveId(id, 'list id')),
    addToList: async (listId, articleId) => addToList(context, positiveId(listId, 'list id'), positiveId(articleId, 'articleId')),
    removeFromList: async (listId, articleId) => removeFromList(context, positiveId(listId, 'list id'), positiveId(articleId, 'articleId')),
    listRss: async (token) => listRss(context, requireString(token, 'token')),
    importOpml: async (xml) => importOpml(context, requireString(xml, 'OPML document')),
    exportOpml: async () => exportOpml(context),
    listIngestors: ingestors.listIngestors,
    getIngestor: ingestors.getIngestor,
    createIngestor: async (input) => changed(await ingestors.createIngestor(input)),
    updateIngestor: async (id, patch) => changed(await ingestors.updateIngestor(id, patch)),
    deleteIngestor: ingestors.deleteIngestor,
    testIngestor: ingestors.testIngestor,
    runIngestor: (id, runOptions) => ingestorRuns.run(id, () => ingestors.runIngestor(id, runOptions)),
    dueIngestors: ingestors.dueIngestors,
    dueFeeds: async (now, limit) => dueFeeds(store.db, now.getTime(), limit),
    close: () => store.close(),
  };
  return service;
}

/** The model as `workbench agent` finds it from where the reader runs: its credential chain and the project's agent block. */
function defaultJudge(): Promise<RelevanceJudge> {
  return openModelJudge({cwd: process.cwd(), env: process.env, home: homedir()});
}

function requireString(value: unknown, what: string): string {
  if (typeof value !== 'string' || !value.trim()) throw new WorkbenchError('invalid_argument', `${what} must be a non-empty string`);
  return value;
}
