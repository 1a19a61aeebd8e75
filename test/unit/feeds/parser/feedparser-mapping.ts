// Maps a feedparser comparison onto our ParsedFeed. feedparser keeps title markup and sanitises
// HTML; we store titles as plain text and HTML unsanitised, so text fields compare as plain text.
import {parseFeedDate} from '../../../../source/feeds/parser/dates.js';
import {htmlToLine as plainText} from '../../../../source/text/html-text.js';
import type {ParsedFeed, ParsedItem} from '../../../../source/feeds/types.js';
import type {Comparison, Literal} from './feedparser-expect.js';

export interface Mapped {
  actual: unknown;
  expected: unknown;
}

const VERSIONS: Record<string, string> = {
  rss090: 'RSS 0.90',
  rss091u: 'RSS 0.91',
  rss091n: 'RSS 0.91',
  rss092: 'RSS 0.92',
  rss093: 'RSS 0.93',
  rss094: 'RSS 0.94',
  rss20: 'RSS 2.0',
  rss10: 'RSS 1.0',
  atom03: 'Atom 0.3',
  atom10: 'Atom 1.0',
  json1: 'JSON Feed 1.0',
  json11: 'JSON Feed 1.1',
};

const ITEM_TEXT = new Set(['title']);
const ITEM_HTML: Record<string, 'summary' | 'content'> = {summary: 'summary', description: 'summary'};
const DATES: Record<string, 'published' | 'updated'> = {
  published: 'published',
  issued: 'published',
  created: 'published',
  date: 'published',
  updated: 'updated',
  modified: 'updated',
};

/** Our value and the expected one, both normalised; undefined when we do not model that field. */
export function mapComparison(feed: ParsedFeed, comparison: Comparison): Mapped | undefined {
  const [head, ...rest] = comparison.path;
  const expected = comparison.expected;
  if (head === 'len' && rest[0] === 'entries') return {actual: feed.items.length, expected};
  if (head === 'version' && rest.length === 0 && typeof expected === 'string') return VERSIONS[expected] ? {actual: feed.version, expected: VERSIONS[expected]} : undefined;
  if (head === 'feed') return mapFeed(feed, rest, expected);
  if (head === 'entries' && typeof rest[0] === 'number') {
    const item = feed.items[rest[0]];
    const field = rest[1];
    const more = rest.slice(2);
    if (typeof field !== 'string') return undefined;
    if (!item) return {actual: undefined, expected};
    if (ITEM_TEXT.has(field) && more.length === 0 && typeof expected === 'string') return text(item.title, expected);
    // feedparser's summary falls back to the content.
    if (field in ITEM_HTML && more.length === 0 && typeof expected === 'string') return html(item[ITEM_HTML[field]] ?? item.content, expected);
    if (field === 'content' && more[0] === 0 && more[1] === 'value' && typeof expected === 'string') return html(item.content, expected);
    if (field === 'link' && more.length === 0) return {actual: item.link, expected};
    if ((field === 'id' || field === 'guid') && more.length === 0) return {actual: item.guid, expected};
    // feedparser writes "name (email)"; we keep the name.
    if (field === 'author' && more.length === 0 && typeof expected === 'string') return {actual: item.author, expected: plainText(expected.replace(/^(.+) \(\S+@\S+\)$/, '$1'))};
    if (field === 'tags' && typeof more[0] === 'number' && more[1] === 'term') return {actual: item.categories[more[0]], expected};
    // feedparser's enclosure is {href (alias url), type, length} with the length as written.
    if (field === 'enclosures' && typeof more[0] === 'number' && typeof more[1] === 'string' && more.length === 2) {
      const enclosure = item.enclosures?.[more[0]];
      const key = more[1] === 'href' || more[1] === 'url' ? 'url' : more[1];
      if (key === 'url' || key === 'type') return {actual: enclosure?.[key], expected};
      if (key === 'length') return {actual: enclosure?.length === undefined ? undefined : String(enclosure.length), expected};
    }
    if (field in DATES && more.length === 0 && typeof expected === 'string') return date(item, DATES[field], parseFeedDate(expected));
    const parsed = /^(\w+)_parsed$/.exec(field);
    if (parsed && parsed[1] in DATES && more.length === 0 && Array.isArray(expected)) return date(item, DATES[parsed[1]], fromTuple(expected));
  }
  return undefined;
}

function mapFeed(feed: ParsedFeed, rest: Array<string | number>, expected: Literal): Mapped | undefined {
  if (rest.length !== 1 || typeof expected !== 'string') return undefined;
  const field = rest[0];
  if (field === 'title') return text(feed.title, expected);
  if (field === 'link') return {actual: feed.link, expected};
  if (field === 'subtitle' || field === 'tagline' || field === 'description') return text(feed.description ?? '', expected);
  return undefined;
}

// Titles are plain text here; feedparser keeps a title's markup when its type says HTML.
function text(actual: string | undefined, expected: string): Mapped {
  if (actual === expected || actual === plainText(expected)) return {actual, expected: actual};
  return {actual: actual === undefined ? undefined : plainText(actual), expected: plainText(expected)};
}

// feedparser puts RSS dates (dc:date) under "updated" where we say "published": either will do.
function date(item: ParsedItem, field: 'published' | 'updated', expected: string | undefined): Mapped {
  const other = field === 'published' ? 'updated' : 'published';
  return {actual: item[field] === expected || item[field] === undefined ? (item[field] ?? item[other]) : item[field], expected};
}

// HTML fields: feedparser resolves and sanitises markup, we keep it; the text must agree.
// feedparser's value for text content is the text; ours is that text escaped as HTML.
function html(actual: string | undefined, expected: string): Mapped {
  if (actual === expected || (actual !== undefined && plainText(actual) === expected)) return {actual, expected: actual};
  return {actual: actual === undefined ? undefined : plainText(actual), expected: plainText(expected)};
}

// feedparser's time.struct_time: (year, month, day, hour, minute, second, weekday, yearday, dst), UTC.
function fromTuple(tuple: Literal[]): string | undefined {
  const [y, mo, d, h, mi, s] = tuple as number[];
  if (typeof y !== 'number') return undefined;
  return new Date(Date.UTC(y, mo - 1, d, h, mi, s)).toISOString();
}
