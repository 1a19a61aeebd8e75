import {createHash} from 'node:crypto';
import type {Knex} from 'knex';
import type {ParsedItem} from '../types.js';
import type {Dialect} from '../../storage/connection.js';
import {WorkbenchError} from '../../core/errors.js';
import {enclosureRows, saveEnclosures} from './enclosure-rows.js';
import {addUnread, insertFeedRow, updateFeedRow, type FeedPatch, type NewFeed} from './feed-rows.js';

/** An item of a poll with its identity key (parser/identity.ts). */
export interface PolledItem {
  key: string;
  item: ParsedItem;
}

const KEY_LIMIT = 200;
// Caps keep one row far below MySQL's TEXT (64 KB) and MEDIUMTEXT (16 MB) limits.
const TITLE_LIMIT = 2_000;
const AUTHOR_LIMIT = 500;
const LINK_LIMIT = 4_000;
const BODY_LIMIT = 1_000_000;
const CATEGORY_LIMIT = 200;
const CATEGORIES_PER_ARTICLE = 50;
const ROWS_PER_INSERT = 100;
// MySQL refuses statements above max_allowed_packet (16 MB on MariaDB); stay far below.
const BYTES_PER_INSERT = 2_000_000;
const LOOKUPS_PER_QUERY = 500;

/** Keys longer than the indexed column are stored as their SHA-256, still unique per feed. */
export function storedKey(key: string): string {
  return key.length <= KEY_LIMIT ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`;
}

/**
 * Commits one poll in ONE transaction: the feed's new state and the items whose keys the feed
 * has not stored yet. A crash part-way leaves the previous poll's state, never half of this one.
 * Answers how many articles were new; not_found when the feed was deleted meanwhile.
 */
export async function savePoll(db: Knex, feedId: number, items: PolledItem[], patch: FeedPatch, nowMs: number): Promise<number> {
  return db.transaction((trx) => writePoll(trx, feedId, items, patch, nowMs));
}

/** A new subscription and its first poll, in one transaction; answers the feed's id. */
export async function saveNewFeed(db: Knex, dialect: Dialect, feed: NewFeed, items: PolledItem[], nowMs: number): Promise<number> {
  return db.transaction(async (trx) => {
    const id = await insertFeedRow(trx, dialect, feed, nowMs);
    await writePoll(trx, id, items, {}, nowMs);
    return id;
  });
}

async function writePoll(trx: Knex.Transaction, feedId: number, items: PolledItem[], patch: FeedPatch, nowMs: number): Promise<number> {
  if (!(await trx('feeds').select('id').where('id', feedId).first())) throw new WorkbenchError('not_found', `feed ${feedId} was removed`);
  const added = await insertNewItems(trx, feedId, items, nowMs);
  if (Object.keys(patch).length > 0) await updateFeedRow(trx, feedId, patch);
  return added;
}

/**
 * Inserts the items whose keys the feed has not stored yet (with their categories and the feed's
 * unread count), inside the caller's transaction; answers how many were new. Feeds and ingestors
 * (source/feeds/ingestors) store their entries through it.
 */
export async function insertNewItems(trx: Knex.Transaction, feedId: number, items: PolledItem[], nowMs: number): Promise<number> {
  const unique = uniqueByKey(items);
  const known = await existingKeys(trx, feedId, [...unique.keys()]);
  const fresh = [...unique].filter(([key]) => !known.has(key));
  // Feeds list newest first; inserting oldest first gives the newest the highest id, which
  // breaks ties between undated items the way the feed ordered them.
  fresh.reverse();
  for (const chunk of chunks(fresh)) {
    // Rows are built chunk by chunk inside the transaction: a 10,000-item feed never sits in memory twice.
    const rows = chunk.map(([key, item]) => articleRow(feedId, key, item, nowMs));
    await trx('articles').insert(rows);
    const withEnclosures = chunk.filter(([, item]) => item.enclosures?.length);
    const idOf = await articleIds(trx, feedId, [...rows.filter((row) => row.categories !== '[]').map((row) => row.item_key), ...withEnclosures.map(([key]) => key)]);
    await saveCategories(trx, feedId, rows, idOf);
    await saveEnclosures(
      trx,
      withEnclosures.flatMap(([key, item]) => enclosureRows(idOf.get(key)!, item.enclosures)),
    );
  }
  // Every new article is unread: the feed's count moves in the same transaction.
  await addUnread(trx, feedId, fresh.length);
  return fresh.length;
}

function uniqueByKey(items: PolledItem[]): Map<string, ParsedItem> {
  const unique = new Map<string, ParsedItem>();
  for (const {key, item} of items) {
    const stored = storedKey(key);
    if (!unique.has(stored)) unique.set(stored, item);
  }
  return unique;
}

async function existingKeys(trx: Knex.Transaction, feedId: number, keys: string[]): Promise<Set<string>> {
  const known = new Set<string>();
  for (let start = 0; start < keys.length; start += LOOKUPS_PER_QUERY) {
    const rows = (await trx('articles')
      .select('item_key')
      .where('feed_id', feedId)
      .whereIn('item_key', keys.slice(start, start + LOOKUPS_PER_QUERY))) as {item_key: string}[];
    for (const row of rows) known.add(row.item_key);
  }
  return known;
}

type ArticleInsert = ReturnType<typeof articleRow>;

export function articleRow(feedId: number, key: string, item: ParsedItem, nowMs: number) {
  const published = dateMs(item.published) ?? dateMs(item.updated);
  return {
    feed_id: feedId,
    item_key: key,
    title: (item.title ?? '').slice(0, TITLE_LIMIT),
    link: item.link?.slice(0, LINK_LIMIT) || null,
    author: item.author?.slice(0, AUTHOR_LIMIT) || null,
    published_at: published,
    // A date in the future would pin an article to the top for ever.
    sort_at: published === null ? nowMs : Math.min(published, nowMs),
    summary: item.summary?.slice(0, BODY_LIMIT) || null,
    content: item.content?.slice(0, BODY_LIMIT) || null,
    categories: JSON.stringify(cleanCategories(item.categories)),
    is_read: false,
    snoozed_until: null,
    created_at: nowMs,
  };
}

/** The ids of just-inserted articles (by key) that need rows in another table, in one statement. */
async function articleIds(trx: Knex.Transaction, feedId: number, keys: string[]): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  const ids = (await trx('articles')
    .select('id', 'item_key')
    .where('feed_id', feedId)
    .whereIn('item_key', [...new Set(keys)])) as {id: number; item_key: string}[];
  return new Map(ids.map((row) => [row.item_key, Number(row.id)]));
}

async function saveCategories(trx: Knex.Transaction, feedId: number, rows: ArticleInsert[], idOf: Map<string, number>): Promise<void> {
  const tagged = rows.filter((row) => row.categories !== '[]');
  if (tagged.length === 0) return;
  const links = tagged.flatMap((row) =>
    (JSON.parse(row.categories) as string[]).map((name) => ({article_id: idOf.get(row.item_key)!, feed_id: feedId, name, sort_at: row.sort_at})),
  );
  for (let start = 0; start < links.length; start += 300) {
    await trx('article_categories')
      .insert(links.slice(start, start + 300))
      .onConflict(['article_id', 'name'])
      .ignore();
  }
}

function cleanCategories(categories: string[] | undefined): string[] {
  const seen = new Set<string>();
  for (const raw of categories ?? []) {
    const name = typeof raw === 'string' ? raw.trim().slice(0, CATEGORY_LIMIT) : '';
    if (name) seen.add(name);
    if (seen.size >= CATEGORIES_PER_ARTICLE) break;
  }
  return [...seen];
}

function dateMs(text: string | undefined): number | null {
  if (!text) return null;
  const ms = Date.parse(text);
  return Number.isFinite(ms) && ms > 0 ? ms : null;
}

function* chunks<T extends [string, ParsedItem]>(entries: T[]): Generator<T[]> {
  let chunk: T[] = [];
  let bytes = 0;
  for (const entry of entries) {
    const item = entry[1];
    const size = (item.content?.length ?? 0) + (item.summary?.length ?? 0) + (item.title?.length ?? 0) + 500;
    if (chunk.length > 0 && (chunk.length >= ROWS_PER_INSERT || bytes + size > BYTES_PER_INSERT)) {
      yield chunk;
      chunk = [];
      bytes = 0;
    }
    chunk.push(entry);
    bytes += size;
  }
  if (chunk.length > 0) yield chunk;
}
