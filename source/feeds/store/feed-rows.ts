import {createHash} from 'node:crypto';
import type {Knex} from 'knex';
import type {Feed, FetchStatus} from '../types.js';
import type {Dialect} from '../../storage/connection.js';
import {unreadCondition} from './migrations.js';
import {flag, iso, isoOrNull, millis} from '../../storage/time.js';
import {insertReturningId} from '../../storage/inserted-id.js';
import {touchListsOfFeed} from './list-rows.js';

export interface FeedRow {
  id: number;
  url: string;
  title: string;
  site_url: string | null;
  category: string | null;
  etag: string | null;
  last_modified: string | null;
  fetch_status: FetchStatus;
  last_error: string | null;
  last_fetched_at: number | string | null;
  last_success_at: number | string | null;
  next_fetch_at: number | string | null;
  interval_minutes: number;
  consecutive_failures: number;
  /**
   * Whether polls may reach a private or loopback address: true for a URL the user typed or
   * imported, false for one found at a public address (migration 003). Read it with allowsPrivate().
   */
  allow_private: boolean | number;
  /** How many of its articles are unread, snoozed ones included (migration 005); kept by every write that changes it. */
  unread_count: number | string;
  created_at: number | string;
}

/** The feed's allow_private column as a boolean (0/1 on SQLite and MySQL). */
export function allowsPrivate(row: Pick<FeedRow, 'allow_private'>): boolean {
  return flag(row.allow_private);
}

export type NewFeed = Pick<FeedRow, 'url' | 'title' | 'site_url' | 'category'> & Partial<Omit<FeedRow, 'id' | 'url' | 'title' | 'site_url' | 'category' | 'unread_count'>>;

/** Columns a poll or an edit may change; url_hash follows url. The unread count moves only with its articles. */
export type FeedPatch = Partial<Omit<FeedRow, 'id' | 'created_at' | 'unread_count'>>;

export function urlHash(url: string): string {
  return createHash('sha256').update(url).digest('hex');
}

export function feedRecord(row: FeedRow & {unread_now?: unknown}): Feed {
  return {
    id: Number(row.id),
    url: row.url,
    title: row.title,
    siteUrl: row.site_url ?? null,
    category: row.category ?? null,
    unreadCount: Math.max(0, Number(row.unread_now ?? row.unread_count ?? 0)),
    fetchStatus: row.fetch_status,
    lastError: row.last_error ?? null,
    lastFetchedAt: isoOrNull(row.last_fetched_at),
    lastSuccessAt: isoOrNull(row.last_success_at),
    nextFetchAt: isoOrNull(row.next_fetch_at),
    createdAt: iso(row.created_at),
  };
}

/** The columns feedRecord reads: not url_hash, validators or poll counters, which a listing of every feed would carry for nothing. */
const FEED_RECORD_COLUMNS = [
  'id',
  'url',
  'title',
  'site_url',
  'category',
  'fetch_status',
  'last_error',
  'last_fetched_at',
  'last_success_at',
  'next_fetch_at',
  'created_at',
] as const;

/**
 * Feeds with their unread counts (unread and not snoozed at `nowMs`), by title: each feed's kept
 * count less its unread articles snoozed past `nowMs` (few, found through articles_snoozed).
 */
export async function feedsWithUnread(db: Knex, dialect: Dialect, nowMs: number, feedId?: number): Promise<Feed[]> {
  const snoozed = db('articles').select('feed_id').count({snoozed: '*'}).where('snoozed_until', '>', nowMs);
  // SQLite's planner skip-scans articles_unread_count (every feed's unread range) for this; the few
  // snoozed rows are a range of articles_snoozed. `+col` keeps a column from choosing the index:
  // 1 ms instead of 4–6 ms at 1M articles (bench/reader-articles). SQLite-only syntax.
  if (dialect === 'sqlite') snoozed.whereRaw('+is_read = 0').groupByRaw('+feed_id');
  else snoozed.whereRaw(unreadCondition(dialect)).groupBy('feed_id');
  if (feedId !== undefined) snoozed.where('feed_id', feedId);
  const query = db('feeds as f')
    .select(...FEED_RECORD_COLUMNS.map((column) => `f.${column}`), db.raw('f.unread_count - coalesce(s.snoozed, 0) as unread_now'))
    .leftJoin(snoozed.as('s'), 's.feed_id', 'f.id')
    .orderBy([{column: 'f.title'}, {column: 'f.id'}]);
  if (feedId !== undefined) query.where('f.id', feedId);
  const rows = (await query) as (FeedRow & {unread_now: unknown})[];
  return rows.map(feedRecord);
}

/** When the next snooze after `nowMs` ends (ms), or null when none is pending: unread counts change then without a write. */
export async function nextSnoozeEnd(db: Knex, nowMs: number): Promise<number | null> {
  const row = (await db('articles').min({next: 'snoozed_until'}).where('snoozed_until', '>', nowMs).first()) as {next: unknown} | undefined;
  return millis(row?.next);
}

/** Moves a feed's kept unread count by `delta`, inside the caller's transaction. */
export async function addUnread(db: Knex, feedId: number, delta: number): Promise<void> {
  if (delta !== 0) await db('feeds').where('id', feedId).increment('unread_count', delta);
}

export async function findFeedRow(db: Knex, id: number): Promise<FeedRow | undefined> {
  return (await db('feeds').where('id', id).first()) as FeedRow | undefined;
}

export async function findFeedIdByUrl(db: Knex, url: string): Promise<number | undefined> {
  const row = (await db('feeds').select('id').where('url_hash', urlHash(url)).first()) as {id: number} | undefined;
  return row ? Number(row.id) : undefined;
}

export async function insertFeedRow(db: Knex, dialect: Dialect, feed: NewFeed, nowMs: number): Promise<number> {
  return insertReturningId(db, dialect, 'feeds', {...feed, url_hash: urlHash(feed.url), created_at: nowMs});
}

export async function updateFeedRow(db: Knex, id: number, patch: FeedPatch): Promise<void> {
  const row: Record<string, unknown> = {...patch};
  if (patch.url !== undefined) row.url_hash = urlHash(patch.url);
  await db('feeds').where('id', id).update(row);
}

/** Unsubscribes: the feed goes with its articles; the lists that held some of them are marked changed. */
export async function deleteFeedRow(db: Knex, id: number, nowMs: number): Promise<boolean> {
  return db.transaction(async (trx) => {
    await touchListsOfFeed(trx, id, nowMs);
    return (await trx('feeds').where('id', id).delete()) > 0;
  });
}

/** Feeds due for a poll at `nowMs` (never polled ones too), the longest overdue first. */
export async function dueFeeds(db: Knex, nowMs: number, limit: number): Promise<{id: number; url: string}[]> {
  const rows = (await db('feeds')
    .select('id', 'url')
    .where((where) => where.where('next_fetch_at', '<=', nowMs).orWhereNull('next_fetch_at'))
    // An ingestor's feed is filled by its ingestor (source/feeds/ingestors), never fetched.
    .whereNotExists(db('ingestors').select(db.raw('1')).whereRaw('ingestors.feed_id = feeds.id'))
    .orderBy([{column: 'next_fetch_at'}, {column: 'id'}])
    .limit(limit)) as {id: number; url: string}[];
  return rows.map((row) => ({id: Number(row.id), url: row.url}));
}
