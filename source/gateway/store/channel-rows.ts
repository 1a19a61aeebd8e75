import type {Knex} from 'knex';
import {millis} from '../../storage/index.js';

// Rows of gateway_channels and gateway_channel_items (part A owns both tables). Times are ms.

export interface ChannelRow {
  id: string;
  title: string;
  description: string | null;
  /** sha-256 (hex) of the write token; the token itself is never stored. */
  token_hash: string;
  created_at: number;
  expires_at: number;
}

export interface ChannelItemRow {
  /** Order of arrival, given by the database. */
  seq: number;
  channel_id: string;
  title: string;
  link: string | null;
  description: string | null;
  created_at: number;
}

// node-postgres hands BIGINT over as a string, MySQL counts as strings too.
function channel(row: ChannelRow): ChannelRow {
  return {...row, created_at: millis(row.created_at) ?? 0, expires_at: millis(row.expires_at) ?? 0};
}

function item(row: ChannelItemRow): ChannelItemRow {
  return {...row, seq: Number(row.seq), created_at: millis(row.created_at) ?? 0};
}

export async function insertChannelRow(db: Knex, row: ChannelRow): Promise<void> {
  await db('gateway_channels').insert(row);
}

/** A channel by id, expired or not (the caller decides what expired means at its `now`). */
export async function findChannelRow(db: Knex, id: string): Promise<ChannelRow | undefined> {
  const row = (await db('gateway_channels').where('id', id).first()) as ChannelRow | undefined;
  return row && channel(row);
}

/** Channels not expired at `nowMs`, oldest first, each with how many items it holds. */
export async function liveChannelRows(db: Knex, nowMs: number): Promise<(ChannelRow & {item_count: number})[]> {
  const counts = db('gateway_channel_items').select('channel_id').count({item_count: '*'}).groupBy('channel_id');
  const rows = (await db('gateway_channels as c')
    .select('c.*', db.raw('coalesce(n.item_count, 0) as item_count'))
    .leftJoin(counts.as('n'), 'n.channel_id', 'c.id')
    .where('c.expires_at', '>', nowMs)
    .orderBy([{column: 'c.created_at'}, {column: 'c.id'}])) as (ChannelRow & {item_count: number | string})[];
  return rows.map((row) => ({...channel(row), item_count: Number(row.item_count)}));
}

export async function insertChannelItemRow(db: Knex, row: Omit<ChannelItemRow, 'seq'>): Promise<void> {
  await db('gateway_channel_items').insert(row);
}

/** The newest `limit` items of a channel, newest first (by seq: the order they were taken in). */
export async function newestChannelItemRows(db: Knex, channelId: string, limit: number): Promise<ChannelItemRow[]> {
  const rows = (await db('gateway_channel_items').where('channel_id', channelId).orderBy('seq', 'desc').limit(limit)) as ChannelItemRow[];
  return rows.map(item);
}

/** Deletes a channel with its items; false when there was none. */
export async function deleteChannelRow(db: Knex, id: string): Promise<boolean> {
  return db.transaction(async (trx) => {
    // The foreign key cascades, but not every SQLite connection enforces keys: say it plainly.
    await trx('gateway_channel_items').where('channel_id', id).delete();
    return (await trx('gateway_channels').where('id', id).delete()) > 0;
  });
}

/** Deletes every channel expired at `nowMs` with its items; answers the ids that went. */
export async function deleteExpiredChannelRows(db: Knex, nowMs: number): Promise<string[]> {
  return db.transaction(async (trx) => {
    const ids = ((await trx('gateway_channels').select('id').where('expires_at', '<=', nowMs)) as {id: string}[]).map((row) => row.id);
    if (ids.length === 0) return [];
    // In slices: SQLite and MySQL cap the number of bound parameters of one statement.
    for (let start = 0; start < ids.length; start += 500) {
      const slice = ids.slice(start, start + 500);
      await trx('gateway_channel_items').whereIn('channel_id', slice).delete();
      await trx('gateway_channels').whereIn('id', slice).delete();
    }
    return ids;
  });
}
