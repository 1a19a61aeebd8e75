import {MAX_ENCLOSURES} from '../../feeds/parser/index.js';
import type {Enclosure, ParsedItem} from '../../feeds/types.js';
import type {FeedItem} from '../types.js';

// The copy is one JSON column: these caps (the reader store's) keep a hostile origin's item small.
const CATEGORY_LIMIT = 200;
const CATEGORIES_PER_ITEM = 50;
const URL_LIMIT = 4_000;

/**
 * What an origin item carries besides its text: its enclosures (the parser's, already absolute
 * http(s), one per URL, at most MAX_ENCLOSURES; a URL past URL_LIMIT is dropped, as the reader
 * store drops it) and its categories (trimmed, cut, deduplicated).
 * Only the fields an item has are returned, so an item without media is stored as before.
 */
export function itemMedia(entry: ParsedItem): Pick<FeedItem, 'enclosures' | 'categories'> {
  const media: Pick<FeedItem, 'enclosures' | 'categories'> = {};
  const enclosures = (entry.enclosures ?? [])
    .filter((enclosure) => enclosure.url.length <= URL_LIMIT)
    .slice(0, MAX_ENCLOSURES)
    .map(copyEnclosure);
  if (enclosures.length) media.enclosures = enclosures;
  const categories = itemCategories(entry.categories);
  if (categories.length) media.categories = categories;
  return media;
}

/** Only the Enclosure fields, in a fixed order: the copy's version hashes them. */
function copyEnclosure(enclosure: Enclosure): Enclosure {
  const copy: Enclosure = {url: enclosure.url};
  if (enclosure.type !== undefined) copy.type = enclosure.type;
  if (enclosure.length !== undefined) copy.length = enclosure.length;
  if (enclosure.durationSeconds !== undefined) copy.durationSeconds = enclosure.durationSeconds;
  return copy;
}

function itemCategories(categories: string[] | undefined): string[] {
  const seen = new Set<string>();
  for (const raw of categories ?? []) {
    if (seen.size >= CATEGORIES_PER_ITEM) break;
    const name = typeof raw === 'string' ? raw.trim().slice(0, CATEGORY_LIMIT).trim() : '';
    if (name) seen.add(name);
  }
  return [...seen];
}
