import type {Knex} from 'knex';
import type {ParsedItem} from '../types.js';
import {addUnread, updateFeedRow, type FeedPatch} from './feed-rows.js';
import type {Fate} from './ingestor-ledger.js';
import {updateIngestorRow, type IngestorPatchRow} from './ingestor-rows.js';
import {touchListsOfFeed} from './list-rows.js';
import {articleRow, insertNewItems, storedKey} from './save-poll.js';
import {replaceEnclosures} from './enclosure-rows.js';
import {WorkbenchError} from '../../core/errors.js';
import {unreadCondition} from './migrations.js';

/** One status's row in the ledger after this cycle, and what happens to its article. */
export interface LedgerWrite {
  key: string;
  fate: Fate;
  contentHash: string;
  author: string;
  engagement: number;
  score: number;
  postedAt: number;
  payload: string | null;
  fingerprints: string[] | null;
  judgement: {relevance: number; why: string; hash: string} | null;
  /** insert: a new article; update: its edited text; keep: the article id stays as stored. */
  article: {action: 'insert' | 'update'; item: ParsedItem; id?: number} | {action: 'keep'; id: number | null} | null;
}

export interface CycleWrite {
  ingestorId: number;
  feedId: number;
  nowMs: number;
  ledger: LedgerWrite[];
  /** Statuses gone from the network: their articles (kept) or pending entries go. */
  deleted: Array<{key: string; articleId: number | null}>;
  ingestor: IngestorPatchRow;
  feed: FeedPatch;
  /**
   * Dropped statuses posted before this (ms) and not listed by this fetch are forgotten: the fetch
   * window never reaches back that far, and without it the ledger would keep every status ever seen (most are dropped).
   */
  forgetDroppedBefore?: number;
}

const ROWS = 100;

/**
 * Everything one ingestor cycle changes, in ONE transaction: new articles, edited ones, deleted
 * ones (with the feed's unread count), the ledger, the ingestor's and its feed's state. A crash
 * part-way leaves the previous cycle's state. Answers {added, updated, deleted}.
 */
export async function saveCycle(db: Knex, dialect: 'sqlite' | 'postgres' | 'mysql', write: CycleWrite): Promise<{added: number; updated: number; deleted: number}> {
  return db.transaction(async (trx) => {
    // Removed while its fetch was in flight: nothing of this cycle is written (its feed went with it).
    if (!(await trx('ingestors').select('id').where('id', write.ingestorId).first())) throw new WorkbenchError('not_found', `ingestor ${write.ingestorId} was removed`);
    const inserts = write.ledger.filter((row) => row.article?.action === 'insert');
    const added = await insertNewItems(
      trx,
      write.feedId,
      inserts.map((row) => ({key: row.key, item: (row.article as {item: ParsedItem}).item})),
      write.nowMs,
    );
    const ids = await articleIds(
      trx,
      write.feedId,
      inserts.map((row) => storedKey(row.key)),
    );
    let updated = 0;
    for (const row of write.ledger) {
      if (row.article?.action !== 'update' || !row.article.id) continue;
      updated += await updateArticle(trx, write.feedId, row.article.id, row.article.item, articleRow(write.feedId, row.key, row.article.item, write.nowMs));
    }
    let deleted = 0;
    const articleIdsGone = write.deleted.map((row) => row.articleId).filter((id): id is number => id !== null);
    if (articleIdsGone.length > 0) {
      await touchListsOfFeed(trx, write.feedId, write.nowMs);
      const unread = (await trx('articles').whereIn('id', articleIdsGone).andWhereRaw(unreadCondition(dialect)).count('* as n').first()) as {n: number | string};
      deleted = await trx('articles').whereIn('id', articleIdsGone).delete();
      await addUnread(trx, write.feedId, -Number(unread.n));
    }
    for (let start = 0; start < write.deleted.length; start += ROWS)
      await trx('ingestor_statuses')
        .where('ingestor_id', write.ingestorId)
        .whereIn(
          'status_key',
          write.deleted.slice(start, start + ROWS).map((row) => storedKey(row.key)),
        )
        .delete();
    const rows = write.ledger.map((row) => ({
      ingestor_id: write.ingestorId,
      status_key: storedKey(row.key),
      fate: row.fate,
      content_hash: row.contentHash,
      author: row.author.slice(0, 255),
      engagement: row.engagement,
      score: row.score,
      posted_at: row.postedAt,
      seen_at: write.nowMs,
      article_id: row.article?.action === 'insert' ? (ids.get(storedKey(row.key)) ?? null) : (row.article?.id ?? null),
      payload: row.payload,
      fingerprints: row.fingerprints ? JSON.stringify(row.fingerprints) : null,
      llm_relevance: row.judgement?.relevance ?? null,
      llm_why: row.judgement?.why ?? null,
      llm_hash: row.judgement?.hash ?? null,
    }));
    for (let start = 0; start < rows.length; start += ROWS)
      await trx('ingestor_statuses')
        .insert(rows.slice(start, start + ROWS))
        .onConflict(['ingestor_id', 'status_key'])
        .merge();
    if (write.forgetDroppedBefore !== undefined)
      // Not those this cycle saw (seen_at now): a listing that still shows one keeps its cached judgement.
      await trx('ingestor_statuses')
        .where({ingestor_id: write.ingestorId, fate: 'dropped'})
        .where('posted_at', '<', write.forgetDroppedBefore)
        .where('seen_at', '<', write.nowMs)
        .delete();
    await updateIngestorRow(trx, write.ingestorId, write.ingestor);
    await updateFeedRow(trx, write.feedId, write.feed);
    return {added, updated, deleted};
  });
}

/** An edited status: its article's text, link, author, tags and enclosures change; its place in time and its read state stay. */
async function updateArticle(trx: Knex.Transaction, feedId: number, id: number, item: ParsedItem, fresh: ReturnType<typeof articleRow>): Promise<number> {
  const stored = (await trx('articles').select('sort_at', 'categories').where({id, feed_id: feedId}).first()) as {sort_at: number | string; categories: string} | undefined;
  if (!stored) return 0;
  await trx('articles').where('id', id).update({title: fresh.title, link: fresh.link, author: fresh.author, content: fresh.content, categories: fresh.categories});
  if (stored.categories !== fresh.categories) {
    await trx('article_categories').where('article_id', id).delete();
    const names = JSON.parse(fresh.categories) as string[];
    if (names.length > 0) await trx('article_categories').insert(names.map((name) => ({article_id: id, feed_id: feedId, name, sort_at: Number(stored.sort_at)})));
  }
  await replaceEnclosures(trx, id, item.enclosures);
  return 1;
}

async function articleIds(trx: Knex.Transaction, feedId: number, keys: string[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (let start = 0; start < keys.length; start += 400) {
    const rows = (await trx('articles')
      .select('id', 'item_key')
      .where('feed_id', feedId)
      .whereIn('item_key', keys.slice(start, start + 400))) as {id: number; item_key: string}[];
    for (const row of rows) ids.set(row.item_key, Number(row.id));
  }
  return ids;
}

/**
 * Writes a digest: the article and the flip of its statuses from pending to digested, in ONE
 * transaction — a crash between gathering and writing loses nothing (the statuses stay pending)
 * and writes nothing twice (the article's key is the boundary's). Answers whether it wrote one.
 */
export async function saveDigest(
  db: Knex,
  write: {ingestorId: number; feedId: number; nowMs: number; keys: string[]; item: ParsedItem; nextDigestAt: number},
  /** Tests: runs inside the transaction after every write, before the commit (a crash there). */
  beforeCommit?: () => void | Promise<void>,
): Promise<boolean> {
  return db.transaction(async (trx) => {
    if (!(await trx('ingestors').select('id').where('id', write.ingestorId).first())) throw new WorkbenchError('not_found', `ingestor ${write.ingestorId} was removed`);
    const added = await insertNewItems(trx, write.feedId, [{key: write.item.guid!, item: write.item}], write.nowMs);
    const [article] = (await trx('articles')
      .select('id')
      .where({feed_id: write.feedId, item_key: storedKey(write.item.guid!)})) as {id: number}[];
    for (let start = 0; start < write.keys.length; start += ROWS)
      await trx('ingestor_statuses')
        .where('ingestor_id', write.ingestorId)
        .andWhere('fate', 'pending')
        .whereIn('status_key', write.keys.slice(start, start + ROWS).map(storedKey))
        .update({fate: 'digested', payload: null, article_id: article ? Number(article.id) : null});
    await updateIngestorRow(trx, write.ingestorId, {next_digest_at: write.nextDigestAt});
    await beforeCommit?.();
    return added > 0;
  });
}
