// gateway_origins: the last good copy of each proxied feed's origin and its poll status. Only the
// origin poller (source/gateway/origins) writes these rows, one whole row at a time.
import type {Knex} from 'knex';
import {flag, millis} from '../../storage/index.js';
import type {FeedItem} from '../types.js';

const TABLE = 'gateway_origins';

/** One row as the poller uses it (times in ms since the epoch). */
export interface OriginRecord {
  name: string;
  /** The origin URL the row was polled from: a row of another URL is not this feed's. */
  origin: string;
  /** Validators of the last good copy, sent back as If-None-Match / If-Modified-Since. */
  etag: string | null;
  lastModified: string | null;
  title: string | null;
  description: string | null;
  siteUrl: string | null;
  /** The last good copy's items, newest first; null until the first good poll. */
  items: FeedItem[] | null;
  /** sha-256 of the copy's content; null until the first good poll. */
  version: string | null;
  /** When the version last changed. */
  updatedAt: number | null;
  lastSuccessAt: number | null;
  lastFailureAt: number | null;
  lastError: string | null;
  nextPollAt: number | null;
  /** The origin failed since the last good poll. */
  stale: boolean;
  /** The origin's Retry-After: no fetch before this. */
  retryAfterUntil: number | null;
}

interface OriginRow {
  name: string;
  origin: string;
  etag: string | null;
  last_modified: string | null;
  title: string | null;
  description: string | null;
  site_url: string | null;
  items: string | null;
  version: string | null;
  updated_at: unknown;
  last_success_at: unknown;
  last_failure_at: unknown;
  last_error: string | null;
  next_poll_at: unknown;
  stale: unknown;
  retry_after_until: unknown;
}

export async function findOrigin(db: Knex, name: string): Promise<OriginRecord | undefined> {
  const row = await db<OriginRow>(TABLE).where('name', name).first();
  return row ? fromRow(row) : undefined;
}

/** The rows of these names (a name without a row is left out). */
export async function findOrigins(db: Knex, names: string[]): Promise<Map<string, OriginRecord>> {
  const found = new Map<string, OriginRecord>();
  if (names.length === 0) return found;
  for (const row of await db<OriginRow>(TABLE).whereIn('name', names)) found.set(row.name, fromRow(row));
  return found;
}

/** Writes the whole row (insert or replace). */
export async function saveOrigin(db: Knex, record: OriginRecord): Promise<void> {
  const row = toRow(record);
  await db(TABLE).insert(row).onConflict('name').merge();
}

function fromRow(row: OriginRow): OriginRecord {
  return {
    name: row.name,
    origin: row.origin,
    etag: row.etag,
    lastModified: row.last_modified,
    title: row.title,
    description: row.description,
    siteUrl: row.site_url,
    items: row.items === null ? null : parseItems(row.items),
    version: row.version,
    updatedAt: millis(row.updated_at),
    lastSuccessAt: millis(row.last_success_at),
    lastFailureAt: millis(row.last_failure_at),
    lastError: row.last_error,
    nextPollAt: millis(row.next_poll_at),
    stale: flag(row.stale),
    retryAfterUntil: millis(row.retry_after_until),
  };
}

function toRow(record: OriginRecord): Record<string, unknown> {
  return {
    name: record.name,
    origin: record.origin,
    etag: record.etag,
    last_modified: record.lastModified,
    title: record.title,
    description: record.description,
    site_url: record.siteUrl,
    items: record.items === null ? null : JSON.stringify(record.items),
    version: record.version,
    updated_at: record.updatedAt,
    last_success_at: record.lastSuccessAt,
    last_failure_at: record.lastFailureAt,
    last_error: record.lastError,
    next_poll_at: record.nextPollAt,
    stale: record.stale,
    retry_after_until: record.retryAfterUntil,
  };
}

/** Items as written by saveOrigin; a row that does not read back (edited by hand) counts as no copy. */
function parseItems(text: string): FeedItem[] | null {
  try {
    const items: unknown = JSON.parse(text);
    return Array.isArray(items) ? (items as FeedItem[]) : null;
  } catch {
    return null;
  }
}
