import {WorkbenchError} from '../../core/errors.js';
import type {Store} from '../../storage/index.js';
import {
  deleteChannelRow,
  deleteExpiredChannelRows,
  findChannelRow,
  insertChannelItemRow,
  insertChannelRow,
  liveChannelRows,
  newestChannelItemRows,
  type ChannelItemRow,
  type ChannelRow,
} from '../store/channel-rows.js';
import {CHANNEL_MAX_AGE_SECONDS, type ChannelSummary, type CreatedChannel, type FeedDocument, type FeedItem, type NewChannel, type NewChannelItem} from '../types.js';
import {readChannelInput, readChannelItemInput} from './channel-input.js';
import {documentVersion} from '../../syndication/index.js';
import {createDocumentCache} from './document-cache.js';
import {hashWriteToken, newChannelId, newWriteToken, writeTokenMatches} from './write-token.js';

/**
 * How many items a channel's feed serves, newest first. Older items stay stored until the channel
 * goes. 100 covers a reader that polls every few minutes on a busy channel (feeds commonly carry
 * 10–100 entries), while the document, its render and each WebSub delivery stay bounded (at most
 * 100 × 64 KB) however many thousands of items were posted.
 */
export const CHANNEL_FEED_ITEMS = 100;
/** Channel rows kept in memory (a row is a few hundred bytes). */
const ROW_CACHE_MAX = 10_000;

export interface ChannelsOptions {
  store: Store;
  /** Where the gateway is reached (no trailing slash): feed_url is `<baseUrl>/<id>`. */
  baseUrl: () => string;
  /** The clock, in ms (tests move it past expires_at). */
  now?: () => number;
  /** Called with the channel id after every post and delete (the WebSub hub pushes). */
  onChange?: (id: string) => void;
}

export interface Channels {
  /** invalid_body for a missing/empty/long title, a long description or a ttlHours that is not an integer (integers are clamped to 1..720). */
  create(input: NewChannel): Promise<CreatedChannel>;
  /** unauthorized without a token, not_found for an unknown or expired channel, forbidden for a wrong token, payload_too_large over 64 KB, invalid_body. */
  post(id: string, token: string | undefined, item: NewChannelItem): Promise<void>;
  /** Deletes the channel and its items; the token rules of post(). */
  remove(id: string, token: string | undefined): Promise<void>;
  /** The live channel as a feed (its newest CHANNEL_FEED_ITEMS items, newest first), or null when unknown or expired. */
  document(id: string): Promise<FeedDocument | null>;
  /** The live channels, oldest first, without their tokens. */
  list(): Promise<ChannelSummary[]>;
  /** Deletes every expired channel with its items; answers how many channels went. */
  purgeExpired(): Promise<number>;
}

const notFound = (id: string) => new WorkbenchError('not_found', `no channel "${id}" (unknown or expired)`);

export function createChannels(options: ChannelsOptions): Channels {
  const {store} = options;
  const db = store.db;
  const now = options.now ?? Date.now;
  const cache = createDocumentCache();
  const feedUrl = (id: string) => `${options.baseUrl()}/${id}`;
  // Channel rows by id, so a post is one insert: a row never changes, and a channel deleted
  // elsewhere (another gateway on the same database) is caught by the items' foreign key.
  const rows = new Map<string, ChannelRow>();
  const remember = (row: ChannelRow) => {
    if (rows.size >= ROW_CACHE_MAX) rows.delete(rows.keys().next().value!);
    rows.set(row.id, row);
  };
  const channelRow = async (id: string) => {
    const known = rows.get(id);
    if (known) return known;
    const row = await findChannelRow(db, id);
    if (row) remember(row);
    return row;
  };
  const forget = (id: string) => {
    rows.delete(id);
    cache.invalidate(id);
  };

  const changed = (id: string) => {
    cache.invalidate(id);
    try {
      options.onChange?.(id);
    } catch {
      // A listener's failure (the hub) must not turn a stored post into an error for the poster.
    }
  };

  /** The live channel the token opens: the order of checks makes a wrong id say not_found, not forbidden. */
  async function authorized(id: string, token: string | undefined): Promise<ChannelRow> {
    if (token === undefined || token === '') throw new WorkbenchError('unauthorized', 'a write token is required (Authorization: Bearer <write_token>)');
    const row = typeof id === 'string' ? await channelRow(id) : undefined;
    if (!row || row.expires_at <= now()) throw notFound(String(id));
    if (typeof token !== 'string' || !writeTokenMatches(token, row.token_hash)) throw new WorkbenchError('forbidden', 'the write token does not open this channel');
    return row;
  }

  async function build(row: ChannelRow): Promise<FeedDocument> {
    const rows = await newestChannelItemRows(db, row.id, CHANNEL_FEED_ITEMS);
    const items = feedItems(row.id, rows);
    const document: Omit<FeedDocument, 'version'> = {
      kind: 'channel',
      name: row.id,
      title: row.title,
      description: row.description,
      siteUrl: null,
      items,
      updatedAt: items[0]?.published ?? row.created_at,
      maxAgeSeconds: CHANNEL_MAX_AGE_SECONDS,
      stale: false,
    };
    return {...document, version: documentVersion(document)};
  }

  return {
    async create(input) {
      const channel = readChannelInput(input);
      const createdAt = now();
      const id = newChannelId();
      const token = newWriteToken();
      const expiresAt = createdAt + channel.ttlHours * 3_600_000;
      const row = {id, title: channel.title, description: channel.description, token_hash: hashWriteToken(token), created_at: createdAt, expires_at: expiresAt};
      await insertChannelRow(db, row);
      remember(row);
      return {id, write_token: token, feed_url: feedUrl(id), expires_at: new Date(expiresAt).toISOString()};
    },

    async post(id, token, input) {
      await authorized(id, token);
      const item = readChannelItemInput(input);
      try {
        await insertChannelItemRow(db, {channel_id: id, title: item.title, link: item.link, description: item.description, created_at: now()});
      } catch (error) {
        // Deleted between the check and the insert (or by another gateway): its foreign key refuses the item.
        if (!(await findChannelRow(db, id))) {
          forget(id);
          throw notFound(id);
        }
        throw error;
      }
      changed(id);
    },

    async remove(id, token) {
      await authorized(id, token);
      const deleted = await deleteChannelRow(db, id);
      forget(id);
      if (!deleted) throw notFound(id);
      changed(id);
    },

    async document(id) {
      if (typeof id !== 'string') return null;
      const cached = cache.get(id);
      if (cached) return cached.expiresAt > now() ? cached.document : null;
      const generation = cache.generation(id);
      const row = await channelRow(id);
      if (!row || row.expires_at <= now()) return null;
      const document = await build(row);
      cache.set(id, generation, {document, expiresAt: row.expires_at});
      return document;
    },

    async list() {
      const rows = await liveChannelRows(db, now());
      return rows.map((row) => ({
        id: row.id,
        title: row.title,
        description: row.description,
        itemCount: row.item_count,
        createdAt: new Date(row.created_at).toISOString(),
        expiresAt: new Date(row.expires_at).toISOString(),
        feedUrl: feedUrl(row.id),
      }));
    },

    async purgeExpired() {
      const ids = await deleteExpiredChannelRows(db, now());
      for (const id of ids) forget(id);
      return ids.length;
    },
  };
}

/**
 * Rows (newest first) as feed items. Concurrent posts take their times before the database gives
 * their seq, so two can land a millisecond out of order: published never decreases along seq,
 * so the order by time is the order of arrival.
 */
function feedItems(channelId: string, rows: ChannelItemRow[]): FeedItem[] {
  const items: FeedItem[] = new Array<FeedItem>(rows.length);
  let published = 0;
  for (let index = rows.length - 1; index >= 0; index--) {
    const row = rows[index]!;
    published = Math.max(published, row.created_at);
    items[index] = {id: `${channelId}:${row.seq}`, title: row.title, link: row.link, description: row.description, author: null, published};
  }
  return items;
}
