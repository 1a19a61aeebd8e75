import type {StreamRow} from '../store/index.js';
import type {Enclosure} from '../types.js';
import {millis} from '../store/index.js';
import {feedStreamId, labelId, longItemId, STATE} from './ids.js';

/** What an item says of its feed. */
export interface FeedOrigin {
  title: string;
  siteUrl: string | null;
  category: string | null;
}

/** A Google Reader item (FreshRSS's and Miniflux's shape). */
export interface ReaderItem {
  id: string;
  crawlTimeMsec: string;
  timestampUsec: string;
  published: number;
  updated: number;
  title: string;
  canonical: Array<{href: string; type: string}>;
  alternate: Array<{href: string; type: string}>;
  categories: string[];
  origin: {streamId: string; title: string; htmlUrl: string};
  summary: {direction: 'ltr'; content: string};
  author: string;
  /** Media files as FreshRSS and Inoreader send them; absent when the item has none, as FreshRSS leaves it out. */
  enclosure?: ReaderEnclosure[];
}

/** One media file of an item: `length` in bytes as a JSON number (FreshRSS's shape). */
export interface ReaderEnclosure {
  href: string;
  type?: string;
  length?: number;
}

/**
 * Turns articles into items for one answer, serialised whole by one JSON.stringify (measured: 40%
 * faster than writing each item's JSON by hand). What repeats across items — each feed's origin
 * and folder — is made once per feed, not once per item: a page is 1,000 items of a few feeds.
 */
export function itemWriter(starredTitle: string): (row: StreamRow, feed: FeedOrigin | undefined, lists: string[] | undefined, enclosures: Enclosure[] | undefined) => ReaderItem {
  const origins = new Map<number, {origin: ReaderItem['origin']; folder: string | null}>();
  const originOf = (feedId: number, feed: FeedOrigin | undefined) => {
    let found = origins.get(feedId);
    if (!found) {
      found = {origin: {streamId: feedStreamId(feedId), title: feed?.title ?? '', htmlUrl: feed?.siteUrl ?? ''}, folder: feed?.category ? labelId(feed.category) : null};
      origins.set(feedId, found);
    }
    return found;
  };
  return (row, feed, lists, enclosures) => {
    const {origin, folder} = originOf(Number(row.feed_id), feed);
    const sortAt = millis(row.sort_at)!;
    const published = Math.floor((millis(row.published_at) ?? sortAt) / 1000);
    const categories = [`${STATE}reading-list`];
    if (row.is_read === true || row.is_read === 1) categories.push(`${STATE}read`);
    if (folder) categories.push(folder);
    for (const title of lists ?? []) categories.push(title === starredTitle ? `${STATE}starred` : labelId(title));
    const link = row.link ? [{href: row.link, type: 'text/html'}] : [];
    const item: ReaderItem = {
      id: longItemId(Number(row.id)),
      crawlTimeMsec: String(millis(row.created_at) ?? sortAt),
      timestampUsec: String(sortAt * 1000),
      published,
      updated: published,
      title: row.title,
      canonical: link,
      alternate: link,
      categories,
      origin,
      summary: {direction: 'ltr', content: row.body ?? ''},
      author: row.author ?? '',
    };
    if (enclosures?.length) item.enclosure = enclosures.map(readerEnclosure);
    return item;
  };
}

function readerEnclosure(enclosure: Enclosure): ReaderEnclosure {
  const written: ReaderEnclosure = {href: enclosure.url};
  if (enclosure.type) written.type = enclosure.type;
  if (enclosure.length !== undefined) written.length = enclosure.length;
  return written;
}

/** Atom's `<link rel="enclosure">` (RFC 4287 4.2.7.2), one per media file; `length` only when known. */
function atomEnclosures(enclosures: Enclosure[] | undefined): string {
  let links = '';
  for (const enclosure of enclosures ?? [])
    links +=
      `<link rel="enclosure" href="${xml(enclosure.url)}"` +
      (enclosure.type ? ` type="${xml(enclosure.type)}"` : '') +
      (enclosure.length !== undefined ? ` length="${enclosure.length}"` : '') +
      '/>';
  return links;
}

const XML_UNSAFE = /[&<>"]/g;
const XML_ENTITIES: Record<string, string> = {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'};
// XML 1.0 cannot carry most control characters, whatever a feed sent.
const XML_INVALID = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

function xml(text: string): string {
  return text.replace(XML_INVALID, '').replace(XML_UNSAFE, (char) => XML_ENTITIES[char]!);
}

/**
 * A stream as Atom with Google Reader's categories (FeedHQ's `/reader/atom/<stream>`): what
 * newsboat reads. Read state rides on `<category scheme="http://www.google.com/reader/"
 * label="read">`, unread on `label="fresh"`, so the server's state wins on every reload.
 */
export function atomFeed(
  streamId: string,
  title: string,
  rows: StreamRow[],
  feeds: Map<number, FeedOrigin>,
  enclosures: Map<number, Enclosure[]>,
  continuation: string | null,
): string {
  const entries = rows.map((row) => {
    const read = row.is_read === true || row.is_read === 1;
    const published = new Date(millis(row.published_at) ?? millis(row.sort_at)!).toISOString();
    const state = read ? 'read' : 'fresh';
    return (
      `<entry><id>${longItemId(Number(row.id))}</id><title type="text">${xml(row.title)}</title><published>${published}</published><updated>${published}</updated>` +
      (row.link ? `<link rel="alternate" href="${xml(row.link)}" type="text/html"/>` : '') +
      atomEnclosures(enclosures.get(Number(row.id))) +
      (row.author ? `<author><name>${xml(row.author)}</name></author>` : '') +
      `<category term="${STATE}${state}" scheme="http://www.google.com/reader/" label="${state}"/>` +
      `<content type="html">${xml(row.body ?? '')}</content>` +
      `<source gr:stream-id="${feedStreamId(Number(row.feed_id))}"><title>${xml(feeds.get(Number(row.feed_id))?.title ?? '')}</title></source></entry>`
    );
  });
  return (
    `<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" xmlns:gr="http://www.google.com/schemas/reader/atom/">` +
    `<id>tag:google.com,2005:reader/${xml(streamId)}</id><title>${xml(title)}</title><updated>${new Date().toISOString()}</updated>` +
    (continuation ? `<gr:continuation>${continuation}</gr:continuation>` : '') +
    `${entries.join('')}</feed>\n`
  );
}
