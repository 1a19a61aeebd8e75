import {timingSafeEqual} from 'node:crypto';
import type {Knex} from 'knex';
import type {Visibility} from '../types.js';
import type {Dialect} from '../../storage/connection.js';
import {insertReturningId} from '../../storage/inserted-id.js';
import {unreadCondition} from './migrations.js';

export interface ListRow {
  id: number;
  title: string;
  visibility: Visibility;
  token: string | null;
  created_at: number | string;
  /** When an item was last added or removed (migration 004). */
  changed_at: number | string | null;
  item_count: number;
}

function listsWithCounts(db: Knex) {
  const counts = db('list_items').select('list_id').count({item_count: '*'}).groupBy('list_id');
  return db('lists as l').select('l.*', db.raw('coalesce(c.item_count, 0) as item_count')).leftJoin(counts.as('c'), 'c.list_id', 'l.id').orderBy('l.id');
}

function normalized(row: ListRow): ListRow {
  return {...row, id: Number(row.id), item_count: Number(row.item_count)};
}

/**
 * Each list's unread items now (read, or snoozed past `nowMs`, do not count) and its newest
 * item's time (ms, `sort_at` as for feeds): the Google Reader unread-count of a label.
 */
export async function unreadPerList(db: Knex, dialect: Dialect, nowMs: number): Promise<Map<number, {count: number; newestMs: number}>> {
  const rows = (await db('list_items as li')
    .join('articles as a', 'a.id', 'li.article_id')
    .select('li.list_id')
    .count({unread: '*'})
    .max({newest: 'a.sort_at'})
    .whereRaw(unreadCondition(dialect, 'a'))
    .where((query) => query.whereNull('a.snoozed_until').orWhere('a.snoozed_until', '<=', nowMs))
    .groupBy('li.list_id')) as {list_id: unknown; unread: unknown; newest: unknown}[];
  return new Map(rows.map((row) => [Number(row.list_id), {count: Number(row.unread), newestMs: Number(row.newest ?? 0)}]));
}

export async function allListRows(db: Knex): Promise<ListRow[]> {
  return ((await listsWithCounts(db)) as ListRow[]).map(normalized);
}

export async function findListRow(db: Knex, id: number): Promise<ListRow | undefined> {
  const row = (await listsWithCounts(db).where('l.id', id).first()) as ListRow | undefined;
  return row && normalized(row);
}

/**
 * A public list by its share token; private lists have none, so they never match. Tokens are
 * compared in constant time, one public list at a time (there are few), not by an index seek.
 */
export async function findPublicListRow(db: Knex, token: string): Promise<ListRow | undefined> {
  const wanted = Buffer.from(token);
  const candidates = (await db('lists').select('id', 'token').where('visibility', 'public').whereNotNull('token')) as {id: number; token: string}[];
  const match = candidates.find((candidate) => {
    const stored = Buffer.from(candidate.token);
    return stored.length === wanted.length && timingSafeEqual(stored, wanted);
  });
  return match ? findListRow(db, Number(match.id)) : undefined;
}

export async function insertListRow(db: Knex, dialect: Dialect, title: string, visibility: Visibility, token: string | null, nowMs: number): Promise<number> {
  return insertReturningId(db, dialect, 'lists', {title, visibility, token, created_at: nowMs, changed_at: nowMs});
}

export async function deleteListRow(db: Knex, id: number): Promise<boolean> {
  return (await db('lists').where('id', id).delete()) > 0;
}

/** Adds an article to a list; adding it twice keeps the first time it was added (and changes nothing). */
export async function addListItem(db: Knex, listId: number, articleId: number, nowMs: number): Promise<void> {
  await db.transaction(async (trx) => {
    if (await trx('list_items').select('list_id').where({list_id: listId, article_id: articleId}).first()) return;
    await trx('list_items').insert({list_id: listId, article_id: articleId, added_at: nowMs}).onConflict(['list_id', 'article_id']).ignore();
    await trx('lists').where('id', listId).update({changed_at: nowMs});
  });
}

export async function removeListItem(db: Knex, listId: number, articleId: number, nowMs: number): Promise<boolean> {
  return db.transaction(async (trx) => {
    const removed = (await trx('list_items').where({list_id: listId, article_id: articleId}).delete()) > 0;
    if (removed) await trx('lists').where('id', listId).update({changed_at: nowMs});
    return removed;
  });
}

/** Marks the lists holding articles of a feed as changed (the feed is about to go, its entries with it). */
export async function touchListsOfFeed(db: Knex, feedId: number, nowMs: number): Promise<void> {
  await db('lists')
    .whereIn('id', db('list_items as li').join('articles as a', 'a.id', 'li.article_id').where('a.feed_id', feedId).distinct('li.list_id'))
    .update({changed_at: nowMs});
}

export interface ListEntryRow {
  id: number;
  title: string;
  link: string | null;
  author: string | null;
  published_at: number | string | null;
  summary: string | null;
  content: string | null;
  categories: string;
  added_at: number | string;
  feed_title: string;
}

/** The newest `limit` items of a list, most recently added first, with their feeds' titles. */
export async function listEntries(db: Knex, listId: number, limit: number): Promise<ListEntryRow[]> {
  return (await db('list_items as li')
    .join('articles as a', 'a.id', 'li.article_id')
    .join('feeds as f', 'f.id', 'a.feed_id')
    .select('a.id', 'a.title', 'a.link', 'a.author', 'a.published_at', 'a.summary', 'a.content', 'a.categories', 'li.added_at', 'f.title as feed_title')
    .where('li.list_id', listId)
    .orderBy([
      {column: 'li.added_at', order: 'desc'},
      {column: 'a.id', order: 'desc'},
    ])
    .limit(limit)) as ListEntryRow[];
}
