import {WorkbenchError} from '../../core/errors.js';
import type {ReaderService} from '../contracts.js';
import {
  addListItem,
  allListRows,
  feedsWithUnread,
  insertListRow,
  listTitlesOf,
  loadEnclosures,
  markStreamRead,
  millis,
  newestPerFeed,
  removeListItem,
  setReadMany,
  streamPage,
  streamRowsByIds,
  unreadPerList,
  updateFeedRow,
  type StreamQuery,
  type StreamRow,
  type Store,
} from '../store/index.js';
import {signIn, userOfToken} from './auth.js';
import {articleIdOf, feedStreamId, labelId, parseStream, STATE, type Stream} from './ids.js';
import {atomFeed, itemWriter, type FeedOrigin, type ReaderItem} from './items.js';
import {all, count, decodeContinuation, encodeContinuation, epochMs, one, type Fields} from './params.js';

/** stream/contents and stream/items/contents. */
export interface ReaderStream {
  direction: 'ltr';
  id: string;
  title: string;
  updated: number;
  continuation?: string;
  items: ReaderItem[];
}

/** Starring saves the article to this private list (lists are how this reader keeps articles). */
export const STARRED_LIST = 'Starred';
const MAX_ITEMS = 1000;
const MAX_IDS = 10_000;

export interface GreaderOptions {
  store: Store;
  /** The reader's own logic for what it already does (subscribe, unsubscribe). */
  reader: ReaderService;
  nowMs(): number;
}

/**
 * The Google Reader API over the reader's store (servers/reader/greader serves it): the sync API
 * FreshRSS, Miniflux and Inoreader speak and newsboat, NetNewsWire, Reeder use. Lists are labels;
 * the starred state is the "Starred" list; categories are folders.
 */
export function createGreader(options: GreaderOptions) {
  const {store, reader} = options;
  const {db, dialect} = store;

  const lists = async () => allListRows(db);
  const starredList = async (create: boolean): Promise<number | null> => {
    const found = (await lists()).find((list) => list.title === STARRED_LIST);
    if (found) return Number(found.id);
    return create ? insertListRow(db, dialect, STARRED_LIST, 'private', null, options.nowMs()) : null;
  };

  /** A stream's selection as a store query. */
  const selection = async (stream: Stream): Promise<Partial<StreamQuery> | null> => {
    switch (stream.kind) {
      case 'reading-list':
        return {};
      case 'read':
        return {read: true};
      case 'kept-unread':
        return {read: false};
      case 'starred': {
        const id = await starredList(false);
        return id === null ? null : {listId: id};
      }
      case 'feed':
        return {feedId: stream.feedId};
      case 'label': {
        const list = (await lists()).find((item) => item.title === stream.name);
        return list ? {listId: Number(list.id)} : {category: stream.name};
      }
    }
  };

  const query = async (fields: Fields, streamId: string, limit: number): Promise<StreamQuery | null> => {
    const base = await selection(parseStream(streamId));
    if (base === null) return null;
    const result: StreamQuery = {...base, oldestFirst: one(fields, 'r') === 'o', limit, nowMs: options.nowMs(), after: decodeContinuation(one(fields, 'c'))};
    const starredId = await starredList(false);
    for (const [name, want] of [
      ['xt', false],
      ['it', true],
    ] as const)
      for (const value of all(fields, name)) {
        const filter = parseStream(value);
        if (filter.kind === 'read') result.read = want;
        else if (filter.kind === 'starred') Object.assign(result, {starred: want, starredListId: starredId});
        else if (filter.kind === 'kept-unread') result.read = !want;
        else if (filter.kind === 'reading-list') {
          if (!want) return null;
        } else throw new WorkbenchError('invalid_argument', `${name} takes a state (user/-/state/com.google/read or starred), got "${value.slice(0, 60)}"`);
      }
    const newer = epochMs(fields, 'nt');
    const older = epochMs(fields, 'ot');
    if (newer !== undefined) result.newerThan = newer;
    if (older !== undefined) result.olderThan = older;
    return result;
  };

  /** A page and what continues it: one row more than asked says whether there is more. */
  const page = async (streamQuery: StreamQuery | null, withBodies: boolean) => {
    if (streamQuery === null) return {rows: [] as StreamRow[], continuation: null};
    const rows = await streamPage(db, dialect, {...streamQuery, limit: streamQuery.limit + 1}, withBodies);
    const more = rows.length > streamQuery.limit;
    if (more) rows.pop();
    const last = rows.at(-1);
    return {rows, continuation: more && last ? encodeContinuation(millis(last.sort_at)!, Number(last.id)) : null};
  };

  // The feeds of a page, from the reader's feed list (kept while nothing changed: feed-list-cache.ts).
  const feedOrigins = async (): Promise<Map<number, FeedOrigin>> =>
    new Map((await reader.listFeeds()).map((feed) => [feed.id, {title: feed.title || feed.url, siteUrl: feed.siteUrl, category: feed.category}]));

  const items = async (rows: StreamRow[]): Promise<ReaderItem[]> => {
    const ids = rows.map((row) => Number(row.id));
    // Lists and enclosures of the whole page, one statement each (a page is at most 1,000 items).
    const [titles, feeds, enclosures] = await Promise.all([listTitlesOf(db, ids), feedOrigins(), loadEnclosures(db, ids, dialect)]);
    const write = itemWriter(STARRED_LIST);
    return rows.map((row) => write(row, feeds.get(Number(row.feed_id)), titles.get(Number(row.id)), enclosures.get(Number(row.id))));
  };

  const stream = (id: string, title: string, list: ReaderItem[], continuation: string | null): ReaderStream => ({
    direction: 'ltr',
    id,
    title,
    updated: Math.floor(options.nowMs() / 1000),
    ...(continuation ? {continuation} : {}),
    items: list,
  });

  return {
    signIn: (email: string, password: string) => signIn(db, email, password),
    authenticate: (token: string) => userOfToken(db, token),

    async subscriptions() {
      const feeds = await reader.listFeeds();
      return {
        subscriptions: feeds.map((feed) => ({
          id: feedStreamId(feed.id),
          title: feed.title || feed.url,
          categories: feed.category ? [{id: labelId(feed.category), label: feed.category}] : [],
          url: feed.url,
          htmlUrl: feed.siteUrl ?? feed.url,
          iconUrl: '',
          firstitemmsec: String(Date.parse(feed.createdAt)),
        })),
      };
    },

    /** subscription/edit: ac=subscribe|unsubscribe|edit, s=feed/<id or url>, t=title, a/r=user/-/label/<folder>. */
    async editSubscription(fields: Fields): Promise<void> {
      const action = one(fields, 'ac');
      const streams = all(fields, 's');
      if (streams.length === 0) throw new WorkbenchError('invalid_argument', 's (the subscription: feed/<id> or feed/<url>) is required');
      for (const stream of streams) {
        const target = stream.replace(/^feed\//, '');
        if (action === 'subscribe') {
          const folder = one(fields, 'a');
          const result = await reader.subscribe(target, {category: folder ? folder.replace(/^user\/[^/]+\/label\//, '') : null});
          if ('choices' in result) throw new WorkbenchError('invalid_argument', `${target} is a page linking ${result.choices.length} feeds; subscribe to one of them`);
          if (one(fields, 't')) await updateFeedRow(db, result.feed.id, {title: one(fields, 't')!.slice(0, 500)});
          continue;
        }
        const feedId = await feedIdOf(target);
        if (action === 'unsubscribe') await reader.unsubscribe(feedId);
        else if (action === 'edit') {
          const title = one(fields, 't');
          const add = one(fields, 'a');
          const patch: Record<string, string | null> = {};
          if (title) patch.title = title.slice(0, 500);
          if (add) patch.category = add.replace(/^user\/[^/]+\/label\//, '').slice(0, 200);
          else if (one(fields, 'r')) patch.category = null;
          await updateFeedRow(db, feedId, patch);
        } else throw new WorkbenchError('invalid_argument', 'ac must be subscribe, unsubscribe or edit');
      }
    },

    async quickadd(url: string) {
      const result = await reader.subscribe(url.replace(/^feed\//, ''));
      if ('choices' in result) return {query: url, numResults: 0, choices: result.choices.map((choice) => choice.url)};
      return {query: url, numResults: 1, streamId: feedStreamId(result.feed.id), streamName: result.feed.title};
    },

    async tags() {
      const folders = new Set((await reader.listFeeds()).map((feed) => feed.category).filter((name): name is string => Boolean(name)));
      const labels = (await lists()).filter((list) => list.title !== STARRED_LIST).map((list) => ({id: labelId(list.title), type: 'tag'}));
      return {tags: [{id: `${STATE}starred`}, ...[...folders].map((name) => ({id: labelId(name), type: 'folder'})), ...labels]};
    },

    async unreadCounts() {
      const nowMs = options.nowMs();
      const feeds = await feedsWithUnread(db, dialect, nowMs);
      const newest = await newestPerFeed(db);
      const usec = (ms: number) => String(ms * 1000);
      const counts = feeds.map((feed) => ({id: feedStreamId(feed.id), count: feed.unreadCount, newestItemTimestampUsec: usec(newest.get(feed.id) ?? 0)}));
      // Labels as FreshRSS and Miniflux count them: a folder sums its feeds, a list counts its unread items.
      const folders = new Map<string, {count: number; newestMs: number}>();
      for (const feed of feeds) {
        if (!feed.category) continue;
        const folder = folders.get(feed.category) ?? {count: 0, newestMs: 0};
        folder.count += feed.unreadCount;
        folder.newestMs = Math.max(folder.newestMs, newest.get(feed.id) ?? 0);
        folders.set(feed.category, folder);
      }
      const perList = await unreadPerList(db, dialect, nowMs);
      const labels = [
        ...[...folders].map(([name, folder]) => ({id: labelId(name), count: folder.count, newestItemTimestampUsec: usec(folder.newestMs)})),
        ...(await lists())
          .filter((list) => list.title !== STARRED_LIST)
          .map((list) => {
            const unread = perList.get(list.id) ?? {count: 0, newestMs: 0};
            return {id: labelId(list.title), count: unread.count, newestItemTimestampUsec: usec(unread.newestMs)};
          }),
      ];
      const total = feeds.reduce((sum, feed) => sum + feed.unreadCount, 0);
      const latest = Math.max(0, ...newest.values());
      return {max: MAX_ITEMS, unreadcounts: [...counts, ...labels, {id: `${STATE}reading-list`, count: total, newestItemTimestampUsec: usec(latest)}]};
    },

    /** stream/contents/<stream>: a page of items (1,000 is the common page). */
    async streamContents(streamId: string, fields: Fields): Promise<ReaderStream> {
      const {rows, continuation} = await page(await query(fields, streamId, count(fields, 'n', 20, MAX_ITEMS)), true);
      return stream(streamId, await streamTitle(streamId), await items(rows), continuation);
    },

    async itemIds(fields: Fields) {
      const streamId = one(fields, 's') ?? `${STATE}reading-list`;
      const {rows, continuation} = await page(await query(fields, streamId, count(fields, 'n', 20, MAX_IDS)), false);
      return {
        itemRefs: rows.map((row) => ({id: String(row.id), directStreamIds: [], timestampUsec: String(millis(row.sort_at)! * 1000)})),
        ...(continuation ? {continuation} : {}),
      };
    },

    async itemContents(fields: Fields): Promise<ReaderStream> {
      const ids = all(fields, 'i').slice(0, MAX_ITEMS).map(articleIdOf);
      const rows = ids.length === 0 ? [] : await streamRowsByIds(db, dialect, ids);
      return stream(`${STATE}reading-list`, 'Items', await items(rows), null);
    },

    /** edit-tag: a/r of read, starred (the Starred list), kept-unread, and labels (lists), for many items at once. */
    async editTag(fields: Fields): Promise<void> {
      const ids = [...new Set(all(fields, 'i').map(articleIdOf))];
      if (ids.length === 0) throw new WorkbenchError('invalid_argument', 'i (the items) is required');
      const nowMs = options.nowMs();
      for (const [name, add] of [
        ['a', true],
        ['r', false],
      ] as const)
        for (const tag of all(fields, name)) {
          // Other states (broadcast, tracking-kept-unread …: newsboat sends them) are accepted and ignored, as FreshRSS and Miniflux do.
          if (isOtherState(tag)) continue;
          const stream = parseStream(tag);
          if (stream.kind === 'read') await setReadMany(db, dialect, ids, add);
          else if (stream.kind === 'kept-unread') {
            if (add) await setReadMany(db, dialect, ids, false);
          } else if (stream.kind === 'starred' || stream.kind === 'label') {
            const listId = stream.kind === 'starred' ? await starredList(add) : await listNamed(stream.name, add);
            if (listId === null) continue;
            for (const id of ids) {
              if (add) await addListItem(db, listId, id, nowMs).catch(() => undefined);
              else await removeListItem(db, listId, id, nowMs);
            }
          }
        }
    },

    async markAllRead(fields: Fields): Promise<number> {
      const streamId = one(fields, 's');
      if (!streamId) throw new WorkbenchError('invalid_argument', 's (the stream to mark read) is required');
      const base = await selection(parseStream(streamId));
      if (base === null) return 0;
      return markStreamRead(db, dialect, {feedId: base.feedId, listId: base.listId, category: base.category, upTo: epochMs(fields, 'ts') ?? null});
    },

    /** FeedHQ's `/reader/atom/<stream>` (newsboat reads each subscription there). */
    async atom(streamId: string, fields: Fields): Promise<string> {
      const {rows, continuation} = await page(await query(fields, streamId, count(fields, 'n', 20, MAX_ITEMS)), true);
      const ids = rows.map((row) => Number(row.id));
      const [title, feeds, enclosures] = await Promise.all([streamTitle(streamId), feedOrigins(), loadEnclosures(db, ids, dialect)]);
      return atomFeed(streamId, title, rows, feeds, enclosures, continuation);
    },
  };

  async function feedIdOf(target: string): Promise<number> {
    if (/^\d{1,10}$/.test(target)) return Number(target);
    const feed = (await reader.listFeeds()).find((item) => item.url === target);
    if (!feed) throw new WorkbenchError('not_found', `no subscription ${target.slice(0, 200)}`);
    return feed.id;
  }

  async function listNamed(name: string, create: boolean): Promise<number | null> {
    const found = (await lists()).find((list) => list.title === name);
    if (found) return Number(found.id);
    return create ? insertListRow(db, dialect, name.slice(0, 200), 'private', null, options.nowMs()) : null;
  }

  async function streamTitle(streamId: string): Promise<string> {
    const stream = parseStream(streamId);
    if (stream.kind === 'feed') return (await reader.getFeed(stream.feedId).catch(() => undefined))?.title ?? streamId;
    return stream.kind === 'label' ? stream.name : stream.kind;
  }
}

export type Greader = ReturnType<typeof createGreader>;

const KNOWN_STATES = new Set(['reading-list', 'read', 'starred', 'kept-unread']);

/** A Google Reader state this reader keeps no record of (`…/state/com.google/broadcast`, `…/tracking-kept-unread`). */
function isOtherState(tag: string): boolean {
  const state = /^user\/[^/]+\/state\/com\.google\/(.+)$/.exec(tag.trim())?.[1];
  return state !== undefined && !KNOWN_STATES.has(state);
}
