import type {ReaderService} from '../contracts.js';
import {singleFlight} from '../poller/index.js';
import {categoryCounts, deleteFeedRow, dueFeeds, feedsWithUnread, findFeedRow, markFeedRead, openStore, type Store} from '../store/index.js';
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
import {discover, subscribe} from './subscribe.js';
import {name, optionalName, positiveId, visibility} from './validate.js';

export interface ReaderServiceOptions {
  /** SQLite path, `postgres://…` or `mysql://…`; default `<WORKBENCH_HOME>/reader.sqlite`. */
  connection?: string;
  /** Stand-ins for pipeline stages (tests); the rest are the real ones. */
  deps?: Partial<ReaderDeps>;
  /** Where the reader is reachable, for list RSS URLs; a function when known only after listen. */
  baseUrl?: string | (() => string);
  /** An already open store (the service closes it on close()). */
  store?: Store;
}

/** The service plus what the background poller needs from it. */
export interface LocalReaderService extends ReaderService {
  /** Feeds whose next check is due at `now`, most overdue first. */
  dueFeeds(now: Date, limit: number): Promise<{id: number; url: string}[]>;
  readonly store: Store;
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
  const feed = async (id: number) => {
    const [found] = await feedsWithUnread(store.db, store.dialect, context.nowMs(), positiveId(id, 'feed id'));
    if (!found) throw new WorkbenchError('not_found', `no feed ${id}`);
    return found;
  };

  return {
    store,
    listFeeds: async () => feedList(context.nowMs()),
    getFeed: feed,
    subscribe: async (url, subscribeOptions) => subscribe(context, requireString(url, 'url'), optionalName(subscribeOptions?.category, 'category')),
    discover: async (url) => discover(context, requireString(url, 'url')),
    async unsubscribe(id) {
      if (!(await deleteFeedRow(store.db, positiveId(id, 'feed id'), context.nowMs()))) throw new WorkbenchError('not_found', `no feed ${id}`);
    },
    refresh: async (id) => refreshes.run(positiveId(id, 'feed id'), () => pollFeed(context, id)),
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
    // Replaced by the ingestor service (issue 12, in progress on a branch).
    listIngestors: notYet,
    getIngestor: notYet,
    createIngestor: notYet,
    updateIngestor: notYet,
    deleteIngestor: notYet,
    testIngestor: notYet,
    dueFeeds: async (now, limit) => dueFeeds(store.db, now.getTime(), limit),
    close: () => store.close(),
  };
}

async function notYet(): Promise<never> {
  throw new WorkbenchError('not_found', 'ingestors are not in this build yet');
}

function requireString(value: unknown, what: string): string {
  if (typeof value !== 'string' || !value.trim()) throw new WorkbenchError('invalid_argument', `${what} must be a non-empty string`);
  return value;
}
