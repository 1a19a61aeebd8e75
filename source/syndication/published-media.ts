import {MAX_ENCLOSURES} from '../feeds/parser/index.js';
import {httpLink} from '../feeds/safe-html.js';
import type {Enclosure} from '../feeds/types.js';
import {xmlChars} from '../feeds/xml-chars.js';
import {oneLine} from './one-line.js';
import type {FeedItem} from './types.js';

/** Categories an item publishes at most (the reader store keeps as many). */
const MAX_CATEGORIES = 50;

// A MIME type as the parser keeps it ("audio/mpeg", "video/mp4; codecs=…"), nothing else.
const MIME = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(?:\s*;[^\n\r]*)?$/i;

/**
 * An item's enclosures as every representation publishes them, whoever built the item: absolute
 * http(s) URLs only (a javascript: one is an attack, a relative one means nothing here), one per
 * URL, at most MAX_ENCLOSURES; a type only when it is a MIME type, a length and a duration only
 * when they are positive whole numbers.
 */
export function publishedEnclosures(item: FeedItem): Enclosure[] {
  const seen = new Set<string>();
  const published: Enclosure[] = [];
  for (const enclosure of Array.isArray(item.enclosures) ? item.enclosures : []) {
    if (published.length >= MAX_ENCLOSURES) break;
    const url = typeof enclosure?.url === 'string' ? httpLink(enclosure.url) : undefined;
    if (!url || seen.has(url)) continue;
    seen.add(url);
    const clean: Enclosure = {url};
    const type = typeof enclosure.type === 'string' ? xmlChars(enclosure.type).trim() : '';
    if (type.length <= 255 && MIME.test(type)) clean.type = type;
    if (positiveWhole(enclosure.length)) clean.length = enclosure.length;
    if (positiveWhole(enclosure.durationSeconds)) clean.durationSeconds = enclosure.durationSeconds;
    published.push(clean);
  }
  return published;
}

/** An item's category names: one line of XML-safe text each, no empty or repeated name, at most MAX_CATEGORIES. */
export function publishedCategories(item: FeedItem): string[] {
  const seen = new Set<string>();
  for (const raw of Array.isArray(item.categories) ? item.categories : []) {
    if (seen.size >= MAX_CATEGORIES) break;
    const name = typeof raw === 'string' ? oneLine(raw) : '';
    if (name) seen.add(name);
  }
  return [...seen];
}

function positiveWhole(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}
