import type {Knex} from 'knex';
import type {Dialect} from '../../storage/connection.js';
import {insertReturningId} from '../../storage/inserted-id.js';
import {insertFeedRow, updateFeedRow, type NewFeed} from './feed-rows.js';

/** An ingestor as stored (source/feeds/ingestors: the service turns it into the API's record). */
export interface IngestorRow {
  id: number;
  kind: string;
  config: string;
  secrets: string | null;
  feed_id: number;
  fetch_interval_min: number;
  digest_mode: string;
  filter_threshold: number;
  llm_enabled: boolean | number;
  status: string;
  status_message: string | null;
  consecutive_failures: number;
  last_fetched_at: number | string | null;
  next_fetch_at: number | string | null;
  next_digest_at: number | string | null;
  created_at: number | string;
  /** Counted by the listing queries: ledger rows waiting for a digest. */
  pending?: number | string;
}

export type NewIngestorRow = Pick<IngestorRow, 'kind' | 'config' | 'secrets' | 'fetch_interval_min' | 'digest_mode' | 'filter_threshold'> & {llm_enabled: boolean};
export type IngestorPatchRow = Partial<Omit<IngestorRow, 'id' | 'feed_id' | 'created_at' | 'pending'>>;

/** The feed URL of an ingestor's own feed: never fetched (the feed poller skips feeds that have an ingestor). */
export function ingestorFeedUrl(id: number): string {
  return `ingestor:${id}`;
}

/** Whether a feed URL is an ingestor's own (nothing another reader could fetch: OPML leaves it out). */
export function isIngestorFeedUrl(url: string): boolean {
  return url.startsWith('ingestor:');
}

/** The ingestor and its feed, in one transaction; answers the ingestor's id. */
export async function insertIngestorRow(db: Knex, dialect: Dialect, row: NewIngestorRow, feed: Omit<NewFeed, 'url'>, nowMs: number): Promise<number> {
  return db.transaction(async (trx) => {
    // The feed needs a unique URL before the ingestor's id is known; it gets its own right after.
    const placeholder = `ingestor:new:${nowMs}:${Math.random().toString(36).slice(2)}`;
    const feedId = await insertFeedRow(trx, dialect, {...feed, url: placeholder, fetch_status: 'pending'}, nowMs);
    const id = await insertReturningId(trx, dialect, 'ingestors', {...row, feed_id: feedId, status: 'pending', next_fetch_at: nowMs, created_at: nowMs});
    await updateFeedRow(trx, feedId, {url: ingestorFeedUrl(id)});
    return id;
  });
}

const withPending = (db: Knex) =>
  db('ingestors as i').select('i.*', db('ingestor_statuses as s').count('*').whereRaw('s.ingestor_id = i.id').andWhere('s.fate', 'pending').as('pending'));

export async function allIngestorRows(db: Knex): Promise<IngestorRow[]> {
  return (await withPending(db).orderBy('i.id')) as IngestorRow[];
}

export async function findIngestorRow(db: Knex, id: number): Promise<IngestorRow | undefined> {
  return (await withPending(db).where('i.id', id).first()) as IngestorRow | undefined;
}

export async function updateIngestorRow(db: Knex, id: number, patch: IngestorPatchRow): Promise<void> {
  if (Object.keys(patch).length > 0) await db('ingestors').where('id', id).update(patch);
}

/** The ingestor whose feed this is, if any (an ingestor's feed is removed with the ingestor, not on its own). */
export async function ingestorOfFeed(db: Knex, feedId: number): Promise<number | undefined> {
  const row = (await db('ingestors').select('id').where('feed_id', feedId).first()) as {id: number} | undefined;
  return row ? Number(row.id) : undefined;
}

/** Ingestors to run at `nowMs`: a fetch is due, or a digest boundary passed with statuses pending. */
export async function dueIngestors(db: Knex, nowMs: number, limit: number): Promise<number[]> {
  const rows = (await db('ingestors as i')
    .select('i.id')
    .where((where) => where.where('i.next_fetch_at', '<=', nowMs).orWhereNull('i.next_fetch_at'))
    .orWhere((where) =>
      where.where('i.next_digest_at', '<=', nowMs).whereExists(db('ingestor_statuses as s').select(db.raw('1')).whereRaw('s.ingestor_id = i.id').andWhere('s.fate', 'pending')),
    )
    .orderBy('i.next_fetch_at')
    .limit(limit)) as {id: number}[];
  return rows.map((row) => Number(row.id));
}
