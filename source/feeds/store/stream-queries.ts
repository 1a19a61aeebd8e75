import type {Knex} from 'knex';
import type {Dialect} from '../../storage/connection.js';
import {selectRows} from '../../storage/sqlite-rows.js';
import {readCondition, unreadCondition} from './migrations.js';

/** What a Google Reader stream query asks (source/feeds/greader): one selection, filters, an order, a page. */
export interface StreamQuery {
  feedId?: number;
  /** Articles of these lists (a label that is a list; the starred list). */
  listId?: number;
  /** Articles of feeds filed under this category (a label that is a category). */
  category?: string;
  read?: boolean;
  starredListId?: number | null;
  starred?: boolean;
  /** Newer / older than, epoch ms (exclusive). */
  newerThan?: number;
  olderThan?: number;
  oldestFirst: boolean;
  /** The keyset to continue after. */
  after?: {sortAt: number; id: number};
  limit: number;
  nowMs: number;
}

export interface StreamRow {
  id: number;
  feed_id: number;
  title: string;
  link: string | null;
  author: string | null;
  published_at: number | string | null;
  sort_at: number | string;
  created_at: number | string;
  /** The content, else the summary. */
  body: string | null;
  is_read: boolean | number;
}

const STREAM_COLUMNS = ['a.id', 'a.feed_id', 'a.title', 'a.link', 'a.author', 'a.published_at', 'a.sort_at', 'a.created_at', 'a.is_read'];

/**
 * One page of a stream, in keyset order on (sort_at, id) like every article listing: the
 * indexes of migration 001 serve it (the unread partial index when only unread ones are asked).
 * `withBodies` false reads ids only (stream/items/ids).
 */
export async function streamPage(db: Knex, dialect: Dialect, query: StreamQuery, withBodies: boolean): Promise<StreamRow[]> {
  const direction = query.oldestFirst ? 'asc' : 'desc';
  // The body in the same query (a page is at most 1,000 rows): the feeds' titles come from the
  // reader's feed list, so no join.
  const select = withBodies
    ? db('articles as a').select([...STREAM_COLUMNS, db.raw('coalesce(a.content, a.summary) as body')])
    : db('articles as a').select(['a.id', 'a.sort_at', 'a.is_read', 'a.feed_id']);
  if (query.feedId !== undefined) select.where('a.feed_id', query.feedId);
  if (query.listId !== undefined) select.whereIn('a.id', db('list_items').select('article_id').where('list_id', query.listId));
  if (query.category !== undefined) select.whereIn('a.feed_id', db('feeds').select('id').where('category', query.category));
  if (query.read === true) select.whereRaw(readCondition(dialect, 'a'));
  if (query.read === false) {
    // Unread as the reader counts it: not read, and not snoozed now.
    select.whereRaw(unreadCondition(dialect, 'a')).where((where) => where.whereNull('a.snoozed_until').orWhere('a.snoozed_until', '<=', query.nowMs));
  }
  if (query.starred !== undefined) {
    const starred = db('list_items')
      .select('article_id')
      .where('list_id', query.starredListId ?? -1);
    if (query.starred) select.whereIn('a.id', starred);
    else select.whereNotIn('a.id', starred);
  }
  if (query.newerThan !== undefined) select.where('a.sort_at', '>', query.newerThan);
  if (query.olderThan !== undefined) select.where('a.sort_at', '<', query.olderThan);
  if (query.after) {
    const {sortAt, id} = query.after;
    const beyond = query.oldestFirst ? '>' : '<';
    select.where((where) => where.where('a.sort_at', beyond, sortAt).orWhere((tie) => tie.where('a.sort_at', sortAt).andWhere('a.id', beyond, id)));
  }
  return selectRows<StreamRow>(
    db,
    dialect,
    select
      .orderBy([
        {column: 'a.sort_at', order: direction},
        {column: 'a.id', order: direction},
      ])
      .limit(query.limit),
  );
}

/** Articles by id, with their bodies (stream/items/contents), in the order asked. */
export async function streamRowsByIds(db: Knex, dialect: Dialect, ids: number[]): Promise<StreamRow[]> {
  const rows = await selectRows<StreamRow>(
    db,
    dialect,
    db('articles as a')
      .select([...STREAM_COLUMNS, db.raw('coalesce(a.content, a.summary) as body')])
      .whereIn('a.id', ids),
  );
  const order = new Map(ids.map((id, index) => [id, index]));
  return rows.sort((a, b) => order.get(Number(a.id))! - order.get(Number(b.id))!);
}

/** The lists each of these articles is on: article id → list titles. */
export async function listTitlesOf(db: Knex, articleIds: number[]): Promise<Map<number, string[]>> {
  const titles = new Map<number, string[]>();
  // A page is at most 1,000 items: one query (every database takes 1,000 parameters).
  for (let start = 0; start < articleIds.length; start += 1000) {
    const rows = (await db('list_items as li')
      .join('lists as l', 'l.id', 'li.list_id')
      .select('li.article_id', 'l.title')
      .whereIn('li.article_id', articleIds.slice(start, start + 1000))) as {article_id: number; title: string}[];
    for (const row of rows) {
      const id = Number(row.article_id);
      titles.set(id, [...(titles.get(id) ?? []), row.title]);
    }
  }
  return titles;
}

/** Marks articles read or unread, many at once, with every feed's unread count kept right, in one transaction. */
export async function setReadMany(db: Knex, dialect: Dialect, articleIds: number[], read: boolean): Promise<number> {
  if (articleIds.length === 0) return 0;
  return db.transaction(async (trx) => {
    let changed = 0;
    for (let start = 0; start < articleIds.length; start += 500) {
      const ids = articleIds.slice(start, start + 500);
      const byFeed = (await trx('articles')
        .select('feed_id')
        .count('* as n')
        .whereIn('id', ids)
        .whereRaw(read ? unreadCondition(dialect) : readCondition(dialect))
        .groupBy('feed_id')) as {feed_id: number; n: number | string}[];
      changed += await trx('articles')
        .whereIn('id', ids)
        .whereRaw(read ? unreadCondition(dialect) : readCondition(dialect))
        .update({is_read: read});
      for (const row of byFeed)
        await trx('feeds')
          .where('id', row.feed_id)
          .increment('unread_count', read ? -Number(row.n) : Number(row.n));
    }
    return changed;
  });
}

/** Marks read what a stream holds up to a time (mark-all-as-read's `ts`), answering how many. */
export async function markStreamRead(db: Knex, dialect: Dialect, query: Pick<StreamQuery, 'feedId' | 'listId' | 'category'> & {upTo: number | null}): Promise<number> {
  return db.transaction(async (trx) => {
    const select = trx('articles').whereRaw(unreadCondition(dialect));
    if (query.feedId !== undefined) select.where('feed_id', query.feedId);
    if (query.listId !== undefined) select.whereIn('id', trx('list_items').select('article_id').where('list_id', query.listId));
    if (query.category !== undefined) select.whereIn('feed_id', trx('feeds').select('id').where('category', query.category));
    if (query.upTo !== null) select.where('sort_at', '<=', query.upTo);
    const byFeed = (await select.clone().select('feed_id').count('* as n').groupBy('feed_id')) as {feed_id: number; n: number | string}[];
    const marked = await select.clone().update({is_read: true});
    for (const row of byFeed) await trx('feeds').where('id', row.feed_id).decrement('unread_count', Number(row.n));
    return marked;
  });
}

/** The newest article time per feed (unread counts' newestItemTimestampUsec), one index seek each. */
export async function newestPerFeed(db: Knex): Promise<Map<number, number>> {
  const rows = (await db('feeds as f').select('f.id', db('articles as a').max('a.sort_at').whereRaw('a.feed_id = f.id').as('newest'))) as {
    id: number;
    newest: number | string | null;
  }[];
  return new Map(rows.filter((row) => row.newest !== null).map((row) => [Number(row.id), Number(row.newest)]));
}
