import type {Knex} from 'knex';
import type {ArticlePage, CategoryCount} from '../types.js';
import {ARTICLE_COLUMNS, articleRecord, fullArticleRecord, type ArticleRow, type FullArticleRow} from './article-rows.js';
import type {Dialect} from './connection.js';
import {unreadCondition} from './migrations.js';
import type {FullArticle} from '../types.js';

export interface ArticleFilter {
  feedId?: number;
  listId?: number;
  category?: string;
  /** Unread and not snoozed at this instant. */
  unreadAt?: number;
  /** Keyset cursor: the last article of the previous page. */
  cursor?: {sortAt: number; id: number};
  limit: number;
}

/**
 * One page, newest first, by keyset: `sort_at <= t AND (sort_at < t OR id < i)` is a range seek
 * on (sort_at, id) at any depth, and rows inserted meanwhile never shift the pages that follow.
 */
export async function pageArticles(db: Knex, dialect: Dialect, filter: ArticleFilter): Promise<ArticlePage> {
  const query = db('articles as a').select(ARTICLE_COLUMNS.map((column) => `a.${column}`));
  if (filter.feedId !== undefined) query.where('a.feed_id', filter.feedId);
  if (filter.listId !== undefined) query.join('list_items as li', 'li.article_id', 'a.id').where('li.list_id', filter.listId);
  if (filter.category !== undefined) {
    const category = filter.category;
    query.whereExists((tagged) => tagged.select(db.raw('1')).from('article_categories as c').whereRaw('c.article_id = a.id').where('c.name', category));
  }
  if (filter.unreadAt !== undefined) {
    const at = filter.unreadAt;
    query.whereRaw(unreadCondition(dialect, 'a')).where((snooze) => snooze.whereNull('a.snoozed_until').orWhere('a.snoozed_until', '<=', at));
  }
  if (filter.cursor) {
    const {sortAt, id} = filter.cursor;
    query.where('a.sort_at', '<=', sortAt).where((after) => after.where('a.sort_at', '<', sortAt).orWhere('a.id', '<', id));
  }
  const rows = (await query.orderBy([{column: 'a.sort_at', order: 'desc'}, {column: 'a.id', order: 'desc'}]).limit(filter.limit + 1)) as ArticleRow[];
  const page = rows.slice(0, filter.limit);
  const last = page.at(-1);
  const nextCursor = rows.length > filter.limit && last ? {before: new Date(Number(last.sort_at)).toISOString(), before_id: Number(last.id)} : null;
  return {articles: page.map(articleRecord), nextCursor};
}

export async function findFullArticle(db: Knex, id: number): Promise<FullArticle | undefined> {
  const row = (await db('articles').select([...ARTICLE_COLUMNS, 'content', 'snoozed_until']).where('id', id).first()) as FullArticleRow | undefined;
  if (!row) return undefined;
  const lists = (await db('list_items').select('list_id').where('article_id', id).orderBy('list_id')) as {list_id: number}[];
  return fullArticleRecord(
    row,
    lists.map((item) => Number(item.list_id)),
  );
}

export async function articleExists(db: Knex, id: number): Promise<boolean> {
  return (await db('articles').select('id').where('id', id).first()) !== undefined;
}

export async function setArticleRead(db: Knex, id: number, read: boolean): Promise<boolean> {
  return (await db('articles').where('id', id).update({is_read: read})) > 0;
}

export async function setArticleSnooze(db: Knex, id: number, untilMs: number | null): Promise<boolean> {
  return (await db('articles').where('id', id).update({snoozed_until: untilMs})) > 0;
}

export async function markFeedRead(db: Knex, dialect: Dialect, feedId: number): Promise<number> {
  return db('articles').where('feed_id', feedId).whereRaw(unreadCondition(dialect)).update({is_read: true});
}

/** Subjects with how many articles carry each, most used first; optionally of one feed. */
export async function categoryCounts(db: Knex, feedId?: number): Promise<CategoryCount[]> {
  const query = db('article_categories').select('name').count({count: '*'}).groupBy('name').orderBy([{column: 'count', order: 'desc'}, {column: 'name'}]);
  if (feedId !== undefined) query.where('feed_id', feedId);
  const rows = (await query) as {name: string; count: unknown}[];
  return rows.map((row) => ({name: row.name, count: Number(row.count)}));
}
