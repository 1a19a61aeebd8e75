import type {Enclosure} from '../types.js';
import {resolveUrl} from './resolve-url.js';
import {attr, child, inNamespace, rawOf} from './xml-values.js';
import type {XmlDocument, XmlNode} from './xml-tree.js';

/**
 * An item's media files: RSS <enclosure>, Atom <link rel="enclosure">, Media RSS <media:content>
 * (direct or in <media:group>), with <itunes:duration>. Kept as Miniflux keeps them: one per URL,
 * absolute http(s) only, at most MAX_ENCLOSURES (a podcast has one; a hostile feed had 10,000).
 */
export const MAX_ENCLOSURES = 50;

/** What an item's enclosures come to (ParsedItem's fields): the kept ones and how many past the cap were left out. */
export interface ItemEnclosures {
  enclosures: Enclosure[];
  enclosuresOmitted: number;
}

/** Collects enclosures in document order, deduplicated by URL, capped and counted. */
export class EnclosureList {
  readonly enclosures: Enclosure[] = [];
  omitted = 0;
  readonly #seen = new Set<string>();

  constructor(readonly base: string | undefined) {}

  /** Adds one when its URL resolves to http(s); a URL seen before fills in what the first lacked. */
  add(href: string | undefined, type: string | undefined, length: string | undefined, duration?: string): void {
    const url = enclosureUrl(href, this.base);
    if (!url) return;
    const size = byteLength(length);
    const seconds = durationSeconds(duration);
    if (this.#seen.has(url)) {
      const known = this.enclosures.find((enclosure) => enclosure.url === url);
      if (known) fillIn(known, type, size, seconds);
      return;
    }
    if (this.enclosures.length >= MAX_ENCLOSURES) {
      this.omitted++;
      return;
    }
    this.#seen.add(url);
    const enclosure: Enclosure = {url};
    fillIn(enclosure, type, size, seconds);
    this.enclosures.push(enclosure);
  }

  result(): ItemEnclosures {
    return {enclosures: this.enclosures, enclosuresOmitted: this.omitted};
  }

  /** The episode's <itunes:duration> belongs to the item's first enclosure when it has none of its own. */
  itemDuration(duration: string | undefined): void {
    const first = this.enclosures[0];
    const seconds = durationSeconds(duration);
    if (first && first.durationSeconds === undefined && seconds !== undefined) first.durationSeconds = seconds;
  }
}

function fillIn(enclosure: Enclosure, type: string | undefined, length: number | undefined, seconds: number | undefined): void {
  const mime = mimeType(type);
  if (mime && !enclosure.type) enclosure.type = mime;
  if (length !== undefined && enclosure.length === undefined) enclosure.length = length;
  if (seconds !== undefined && enclosure.durationSeconds === undefined) enclosure.durationSeconds = seconds;
}

/** RSS: <enclosure url type length>, then Media RSS, then iTunes duration. */
export function rssEnclosures(doc: XmlDocument, item: XmlNode, base: string | undefined): ItemEnclosures {
  const list = new EnclosureList(base);
  for (const node of item.children)
    if (node.local === 'enclosure' && inNamespace(node, item, undefined)) list.add(attr(node, 'url') ?? attr(node, 'href'), attr(node, 'type'), attr(node, 'length'));
  mediaContents(item, list);
  list.itemDuration(rawOf(doc, child(item, 'duration', 'itunes')));
  return list.result();
}

/** Atom: <link rel="enclosure" href type length>, then Media RSS (YouTube's feeds put it in media:group). */
export function atomEnclosures(doc: XmlDocument, entry: XmlNode, base: string | undefined, isAtom: (node: XmlNode) => boolean): ItemEnclosures {
  const list = new EnclosureList(base);
  for (const node of entry.children) {
    if (node.local !== 'link' || !isAtom(node) || attr(node, 'rel')?.toLowerCase() !== 'enclosure') continue;
    list.add(attr(node, 'href'), attr(node, 'type'), attr(node, 'length'));
  }
  mediaContents(entry, list);
  list.itemDuration(rawOf(doc, child(entry, 'duration', 'itunes')));
  return list.result();
}

/** <media:content url type fileSize duration>, direct or one <media:group> deep. */
function mediaContents(item: XmlNode, list: EnclosureList): void {
  for (const node of item.children) {
    if (node.ns !== 'media') continue;
    if (node.local === 'content') addMedia(node, list);
    else if (node.local === 'group') for (const inner of node.children) if (inner.ns === 'media' && inner.local === 'content') addMedia(inner, list);
  }
}

function addMedia(node: XmlNode, list: EnclosureList): void {
  list.add(attr(node, 'url'), attr(node, 'type'), attr(node, 'filesize'), attr(node, 'duration'));
}

/** Absolute http(s), resolved against the item's base; javascript:, data:, ftp: and the like are refused. */
export function enclosureUrl(href: string | undefined, base: string | undefined): string | undefined {
  const resolved = resolveUrl(href, base);
  if (!resolved) return undefined;
  try {
    const url = new URL(resolved);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

// "audio/mpeg", "video/mp4; codecs=…": a type and subtype of token characters.
const MIME = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(?:\s*;.*)?$/i;

function mimeType(value: string | undefined): string | undefined {
  const type = value?.trim();
  return type && type.length <= 255 && MIME.test(type) ? type.toLowerCase() : undefined;
}

/** A byte count as feeds write it ("12216320", "12,216,320"); 0, negative, fractional or past 2^53 is no length. */
function byteLength(value: string | undefined): number | undefined {
  const digits = value?.trim().replace(/[,_]/g, '');
  if (!digits || !/^\d{1,16}$/.test(digits)) return undefined;
  const bytes = Number(digits);
  return bytes > 0 && Number.isSafeInteger(bytes) ? bytes : undefined;
}

/** Seconds from "3723", "62:03", "1:02:03" or "1:02:03.5" (iTunes and Media RSS write these). */
export function durationSeconds(value: string | undefined): number | undefined {
  const text = value?.trim();
  if (!text || text.length > 20 || !/^\d+(?::\d{1,2}){0,2}(?:\.\d+)?$/.test(text)) return undefined;
  const parts = text.split(':').map(Number);
  const seconds = parts.reduce((total, part) => total * 60 + part, 0);
  return Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds) : undefined;
}
