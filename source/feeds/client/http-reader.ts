import {WorkbenchError} from '../../core/errors.js';
import type {ReaderService} from '../contracts.js';
import {refreshAll} from '../refresh-all.js';
import {callServer, isRecord, serverBaseUrl, type ServerAnswer, type ServerRequest} from '../../services/server-call.js';
import type {Ingestor, IngestorTestResult} from '../ingestors/types.js';
import type {ArticlePage, ArticleQuery, CategoryCount, DiscoveredFeed, Feed, FullArticle, List, Visibility} from '../types.js';

// Polling a slow origin may take the fetcher's 20 s timeout and more; plain reads answer at once.
const READ_TIMEOUT_MS = 15_000;
const FETCH_TIMEOUT_MS = 120_000;

type Call = Partial<ServerRequest>;

/** `http://host:port`, `http://host:port/`, `http://host:port/api/v1` all name the same server. */
export function readerBaseUrl(url: string): string {
  return serverBaseUrl(url, '--server', 'http://127.0.0.1:7700', '/api/v1');
}

/** The ReaderService over a running reader's `/api/v1`: the CLI and the TUI against `workbench serve reader`. */
export function createHttpReader(baseUrl: string): ReaderService {
  const base = readerBaseUrl(baseUrl);

  const call = (path: string, options: Call = {}): Promise<ServerAnswer> =>
    callServer({name: 'reader', base}, new URL(`${base}/api/v1${path}`), {...options, timeoutMs: options.timeoutMs ?? READ_TIMEOUT_MS});

  const json = async <T>(path: string, options?: Call): Promise<T> => (await call(path, options)).body as T;
  const id = (value: number) => encodeURIComponent(String(value));
  // Some answers are documented loosely (`subject counts`, `sets read state`): take the record when it is one.
  const article = async (articleId: number, answer: unknown): Promise<FullArticle> =>
    isRecord(answer) && 'listIds' in answer ? (answer as unknown as FullArticle) : reader.getArticle(articleId);
  const list = async (listId: number, answer: unknown): Promise<List> => {
    if (isRecord(answer) && 'visibility' in answer) return answer as unknown as List;
    const found = (await reader.listLists()).find((item) => item.id === listId);
    if (!found) throw new WorkbenchError('not_found', `no list ${listId}`);
    return found;
  };

  const reader: ReaderService = {
    listFeeds: () => json<Feed[]>('/feeds'),
    async getFeed(feedId) {
      const feed = (await reader.listFeeds()).find((item) => item.id === feedId);
      if (!feed) throw new WorkbenchError('not_found', `no feed ${feedId}`);
      return feed;
    },
    async subscribe(url, options = {}) {
      const answer = await call('/feeds', {method: 'POST', body: options.category ? {url, category: options.category} : {url}, timeoutMs: FETCH_TIMEOUT_MS});
      const body = answer.body as {feeds?: DiscoveredFeed[]} & Feed;
      return answer.status === 200 && Array.isArray(body?.feeds) ? {choices: body.feeds} : {feed: body};
    },
    discover: async (url) => (await json<{feeds: DiscoveredFeed[]}>('/feeds/discover', {method: 'POST', body: {url}, timeoutMs: FETCH_TIMEOUT_MS})).feeds ?? [],
    async unsubscribe(feedId) {
      await call(`/feeds/${id(feedId)}`, {method: 'DELETE'});
    },
    refresh: (feedId) => json<{newArticles: number}>(`/feeds/${id(feedId)}/refresh`, {method: 'POST', timeoutMs: FETCH_TIMEOUT_MS}),
    // Feed by feed, each its own request: one request for all could outlast any timeout.
    refreshAll: (ids) => refreshAll(reader, ids),
    async markAllRead(feedId) {
      const body = await json<{marked?: number}>(`/feeds/${id(feedId)}/mark-all-read`, {method: 'POST'});
      return {marked: typeof body?.marked === 'number' ? body.marked : 0};
    },
    listArticles: (query: ArticleQuery) => json<ArticlePage>('/articles', {query: {...query}}),
    getArticle: (articleId) => json<FullArticle>(`/articles/${id(articleId)}`),
    setRead: async (articleId, read) => article(articleId, await json(`/articles/${id(articleId)}/read`, {method: 'POST', body: {read}})),
    snooze: async (articleId, until) => article(articleId, await json(`/articles/${id(articleId)}/snooze`, {method: 'POST', body: {until}})),
    async categories(feedId) {
      const body = await json<CategoryCount[] | {categories: CategoryCount[]}>('/categories', {query: {feed_id: feedId}});
      return Array.isArray(body) ? body : (body?.categories ?? []);
    },
    async listLists() {
      const body = await json<List[] | {lists: List[]}>('/lists');
      return Array.isArray(body) ? body : (body?.lists ?? []);
    },
    createList: (title: string, visibility: Visibility) => json<List>('/lists', {method: 'POST', body: {title, visibility}}),
    async deleteList(listId) {
      await call(`/lists/${id(listId)}`, {method: 'DELETE'});
    },
    addToList: async (listId, articleId) => list(listId, await json(`/lists/${id(listId)}/items`, {method: 'POST', body: {articleId}})),
    removeFromList: async (listId, articleId) => list(listId, await json(`/lists/${id(listId)}/items/${id(articleId)}`, {method: 'DELETE'})),
    listRss: async (token) => (await call(`/lists/${encodeURIComponent(token)}.xml`)).text,
    importOpml: (xml) => json('/opml', {method: 'POST', text: {body: xml, type: 'text/x-opml'}, timeoutMs: FETCH_TIMEOUT_MS}),
    exportOpml: async () => (await call('/opml')).text,
    listIngestors: () => json<Ingestor[]>('/ingestors'),
    getIngestor: (ingestorId) => json<Ingestor>(`/ingestors/${id(ingestorId)}`),
    createIngestor: (input) => json<Ingestor>('/ingestors', {method: 'POST', body: input}),
    updateIngestor: (ingestorId, patch) => json<Ingestor>(`/ingestors/${id(ingestorId)}`, {method: 'PATCH', body: patch}),
    async deleteIngestor(ingestorId) {
      await call(`/ingestors/${id(ingestorId)}`, {method: 'DELETE'});
    },
    // A cycle asks the network (pages of up to 1,000 statuses) and maybe a model: as slow as a feed fetch.
    testIngestor: (request) => json<IngestorTestResult>('/ingestors/test', {method: 'POST', body: request, timeoutMs: FETCH_TIMEOUT_MS}),
    async close() {},
  };
  return reader;
}
