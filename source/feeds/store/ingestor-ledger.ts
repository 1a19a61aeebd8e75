import type {Knex} from 'knex';
import {storedKey} from './save-poll.js';

/**
 * The ledger of statuses an ingestor has handled (migration 006): what became of each — kept (an
 * article), dropped, pending (waiting for a digest), digested — with what identity across polls
 * needs (the content hash: an edit changes it) and what scoring reads back (authors' engagement,
 * fingerprints of kept statuses, the model's cached judgement).
 */
export type Fate = 'kept' | 'dropped' | 'pending' | 'digested';

export interface LedgerRow {
  ingestor_id: number;
  status_key: string;
  fate: Fate;
  content_hash: string;
  author: string;
  engagement: number;
  score: number;
  posted_at: number | string;
  seen_at: number | string;
  article_id: number | null;
  payload: string | null;
  fingerprints: string | null;
  llm_relevance: number | null;
  llm_why: string | null;
  llm_hash: string | null;
}

const LOOKUPS = 400;

/**
 * The ledger rows of these status keys, by the key as given: a key longer than the column is
 * stored as its hash (storedKey), and looked up the same way, so it is still found next cycle.
 */
export async function ledgerRows(db: Knex, ingestorId: number, keys: string[]): Promise<Map<string, LedgerRow>> {
  const found = new Map<string, LedgerRow>();
  const byStored = new Map(keys.map((key) => [storedKey(key), key]));
  const stored = [...byStored.keys()];
  for (let start = 0; start < stored.length; start += LOOKUPS) {
    const rows = (await db('ingestor_statuses')
      .select('status_key', 'fate', 'content_hash', 'article_id', 'llm_relevance', 'llm_why', 'llm_hash', 'posted_at')
      .where('ingestor_id', ingestorId)
      .whereIn('status_key', stored.slice(start, start + LOOKUPS))) as LedgerRow[];
    for (const row of rows) found.set(byStored.get(row.status_key) ?? row.status_key, row);
  }
  return found;
}

/** Stored statuses (kept or pending) posted inside [from, to]: those missing from a fetch covering that span were deleted. */
export async function ledgerKeysBetween(db: Knex, ingestorId: number, fromMs: number, toMs: number): Promise<LedgerRow[]> {
  return (await db('ingestor_statuses')
    .select('status_key', 'fate', 'article_id')
    .where('ingestor_id', ingestorId)
    .whereIn('fate', ['kept', 'pending'])
    .whereBetween('posted_at', [fromMs, toMs])) as LedgerRow[];
}

/** How many of an author's latest statuses their usual engagement is the median of. */
export const USUAL_SAMPLE = 20;

/**
 * Each author's median engagement over their last 20 statuses this ingestor saw. A window
 * function picks the 20 in the database (SQLite ≥ 3.25, PostgreSQL, MariaDB ≥ 10.2): an author
 * with years of statuses in the ledger costs 20 rows, not all of them.
 */
export async function authorsUsual(db: Knex, ingestorId: number, authors: string[]): Promise<Map<string, number>> {
  const usual = new Map<string, number>();
  for (let start = 0; start < authors.length; start += LOOKUPS) {
    const latest = db('ingestor_statuses')
      .select('author', 'engagement', db.raw('row_number() over (partition by author order by posted_at desc) as n'))
      .where('ingestor_id', ingestorId)
      .whereIn('author', authors.slice(start, start + LOOKUPS));
    const rows = (await db.select('author', 'engagement').from(latest.as('latest')).where('n', '<=', USUAL_SAMPLE)) as {author: string; engagement: number | string}[];
    const byAuthor = new Map<string, number[]>();
    for (const row of rows) {
      const list = byAuthor.get(row.author) ?? [];
      list.push(Number(row.engagement));
      byAuthor.set(row.author, list);
    }
    for (const [author, values] of byAuthor) {
      values.sort((a, b) => a - b);
      const middle = values.length >> 1;
      usual.set(author, values.length % 2 ? values[middle]! : (values[middle - 1]! + values[middle]!) / 2);
    }
  }
  return usual;
}

/** Links and text fingerprints of the statuses kept in the last `days` (a later copy of one is a duplicate). */
export async function keptFingerprints(db: Knex, ingestorId: number, sinceMs: number, except: Set<string>): Promise<Set<string>> {
  const rows = (await db('ingestor_statuses')
    .select('status_key', 'fingerprints')
    .where('ingestor_id', ingestorId)
    .whereIn('fate', ['kept', 'pending', 'digested'])
    .where('posted_at', '>=', sinceMs)
    .whereNotNull('fingerprints')
    .limit(20_000)) as {status_key: string; fingerprints: string}[];
  const seen = new Set<string>();
  for (const row of rows) {
    if (except.has(row.status_key)) continue;
    for (const value of JSON.parse(row.fingerprints) as string[]) seen.add(value);
  }
  return seen;
}

/** The newest posting time in the ledger: the next fetch pages back to a day before it. */
export async function newestPosted(db: Knex, ingestorId: number): Promise<number | null> {
  const row = (await db('ingestor_statuses').where('ingestor_id', ingestorId).max('posted_at as newest').first()) as {newest: number | string | null} | undefined;
  return row?.newest == null ? null : Number(row.newest);
}

export async function pendingRows(db: Knex, ingestorId: number): Promise<LedgerRow[]> {
  return (await db('ingestor_statuses').select('*').where('ingestor_id', ingestorId).andWhere('fate', 'pending').orderBy('score', 'desc')) as LedgerRow[];
}
