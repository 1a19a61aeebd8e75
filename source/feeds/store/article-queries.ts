import type {Knex} from 'knex';
import type {ArticlePage, CategoryCount} from '../types.js';
import {loadEnclosures} from './enclosure-rows.js';
import {ARTICLE_COLUMNS, articleRecord, fullArticleRecord, type ArticleRow, type FullArticleRow} from './article-rows.js';
import type {Dialect} from '../../storage/connection.js';
import {readCondition, unreadCondition} from './migrations.js';
import type {FullArticle} from '../types.js';
import {addUnread} from './feed-rows.js';

export interface ArticleFilter {
  feedId?: number;
  listId?: number;
  category?: string;
  /** Unread and not snoozed at this instant. */
  unreadAt?: number;
  /** Only articles already read (`unread=false`). */
  readOnly?: boolean;
  /** Keyset cursor: the last article of the previous page. */
  cursor?: {sortAt: number; id: number};
  limit: number;
}

/**
 * One page, newest first, by keyset: `t <= T AND (t < T OR id < I)` is a range seek on
 * (sort_at, id) at any depth, and rows inserted meanwhile never shift the pages that follow.
 * A category filter seeks the same way on its own (name, sort_at, article_id) index.
 */
export async function pageArticles(db: Knex, dialect: Dialect, filter: ArticleFilter): Promise<ArticlePage> {
  const byCategory = filter.category !== undefined;
  const [time, id] = byCategory ? ['c.sort_at', 'c.article_id'] : ['a.sort_at', 'a.id'];
  const query = byCategory ? db('article_categories as c').join('articles as a', 'a.id', 'c.article_id').where('c.name', filter.category!) : db('articles as a');
  query.select(ARTICLE_COLUMNS.map((column) => `a.${column}`));
  if (filter.feedId !== undefined) query.where('a.feed_id', filter.feedId);
  if (filter.listId !== undefined) query.join('list_items as li', 'li.article_id', 'a.id').where('li.list_id', filter.listId);
  if (filter.unreadAt !== undefined) {
    const at = filter.unreadAt;
    query.whereRaw(unreadCondition(dialect, 'a')).where((snooze) => snooze.whereNull('a.snoozed_until').orWhere('a.snoozed_until', '<=', at));
  }
  if (filter.readOnly) query.whereRaw(readCondition(dialect, 'a'));
  if (filter.cursor) {
    const cursor = filter.cursor;
    query.where(time, '<=', cursor.sortAt).where((after) => after.where(time, '<', cursor.sortAt).orWhere(id, '<', cursor.id));
  }
  const rows = (await query
    .orderBy([
      {column: time, order: 'desc'},
      {column: id, order: 'desc'},
    ])
    .limit(filter.limit + 1)) as ArticleRow[];
  const page = rows.slice(0, filter.limit);
  const last = page.at(-1);
  const nextCursor = rows.length > filter.limit && last ? {before: new Date(Number(last.sort_at)).toISOString(), before_id: Number(last.id)} : null;
  return {articles: page.map(articleRecord), nextCursor};
}

export async function findFullArticle(db: Knex, id: number): Promise<FullArticle | undefined> {
  const row = (await db('articles')
    .select([...ARTICLE_COLUMNS, 'content', 'snoozed_until'])
    .where('id', id)
    .first()) as FullArticleRow | undefined;
  if (!row) return undefined;
  const lists = (await db('list_items').select('list_id').where('article_id', id).orderBy('list_id')) as {list_id: number}[];
  const enclosures = await loadEnclosures(db, [id]);
  return fullArticleRecord(
    row,
    lists.map((item) => Number(item.list_id)),
    enclosures.get(id) ?? [],
  );
}

export async function articleExists(db: Knex, id: number): Promise<boolean> {
  return (await db('articles').select('id').where('id', id).first()) !== undefined;
}

/**
 * Sets an article's read flag; false when there is no such article. The feed's unread count moves
 * in the same transaction, only when the flag changed: the update is conditional on the old
 * value, so two concurrent "mark read" calls move the count once.
 */
export async function setArticleRead(db: Knex, dialect: Dialect, id: number, read: boolean): Promise<boolean> {
  return db.transaction(async (trx) => {
    const row = (await trx('articles').select('feed_id').where('id', id).first()) as {feed_id: number} | undefined;
    if (!row) return false;
    const changed = await trx('articles')
      .where('id', id)
      .whereRaw(read ? unreadCondition(dialect) : readCondition(dialect))
      .update({is_read: read});
    await addUnread(trx, Number(row.feed_id), read ? -changed : changed);
    return true;
  });
}

export async function setArticleSnooze(db: Knex, id: number, untilMs: number | null): Promise<boolean> {
  return (await db('articles').where('id', id).update({snoozed_until: untilMs})) > 0;
}

/** Marks every unread article of a feed read; its unread count drops by as many, in the same transaction. */
export async function markFeedRead(db: Knex, dialect: Dialect, feedId: number): Promise<number> {
  return db.transaction(async (trx) => {
    const marked = await trx('articles').where('feed_id', feedId).whereRaw(unreadCondition(dialect)).update({is_read: true});
    await addUnread(trx, feedId, -marked);
    return marked;
  });
}

/** Subjects with how many articles carry each, most used first; optionally of one feed. */
export async function categoryCounts(db: Knex, feedId?: number): Promise<CategoryCount[]> {
  const query = db('article_categories')
    .select('name')
    .count({count: '*'})
    .groupBy('name')
    .orderBy([{column: 'count', order: 'desc'}, {column: 'name'}]);
  if (feedId !== undefined) query.where('feed_id', feedId);
  const rows = (await query) as {name: string; count: unknown}[];
  return rows.map((row) => ({name: row.name, count: Number(row.count)}));
}
