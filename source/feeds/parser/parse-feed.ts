import {WorkbenchError} from '../../core/errors.js';
import {decodeFeedBody} from '../encoding/decode-body.js';
import type {ParsedFeed} from '../types.js';
import {readAtom} from './read-atom.js';
import {readJsonFeed} from './read-json.js';
import {readRss} from './read-rss.js';
import {parseXmlTree, type XmlNode} from './xml-tree.js';

export interface ParseOptions {
  /** Where the body came from (after redirects): the base for relative links. */
  url?: string;
}

/**
 * A feed body (bytes or text) as the reader stores it: RSS 0.9x/1.0/2.0, Atom 0.3/1.0, JSON Feed
 * 1.0/1.1 (and CDF). Bytes are decoded by charset (Content-Type, BOM, XML declaration). The XML
 * scanner forgives what real feeds get wrong (HTML entities, unclosed tags, junk before the
 * prolog, truncation); of a DOCTYPE's entities it expands only plain-text ones, within a bound
 * (internal-entities.ts). Anything that is not a feed is WorkbenchError('not_a_feed').
 */
export function parseFeed(body: Buffer | Uint8Array | string, contentType?: string | null, options: ParseOptions = {}): ParsedFeed {
  const text = typeof body === 'string' ? body : decodeFeedBody(body, contentType ?? null);
  let start = 0;
  while (start < text.length && isBlank(text.charCodeAt(start))) start++;
  if (start === text.length) throw notAFeed('the document is empty');
  const first = text.charCodeAt(start);
  if (first === 123 /* { */ || (first !== 60 /* < */ && /json/i.test(contentType ?? ''))) return readJsonFeed(text.slice(start), options.url);

  let doc = parseXmlTree(text, isFeedRoot);
  if (doc.refused && doc.root?.local !== 'html') {
    // Junk before the feed (a PHP warning, a stray tag): start again at the prolog or the feed's root.
    const later = text.slice(doc.root?.start ?? 0).search(/<\?xml[\s?]|<(?:rss|feed|rdf:rdf)[\s>]/i);
    if (later !== -1) doc = parseXmlTree(text.slice((doc.root?.start ?? 0) + later), isFeedRoot);
  }
  const root = doc.root;
  if (!root) throw notAFeed(first === 60 ? 'no XML element in the document' : 'neither XML nor JSON');
  if (doc.refused) throw notAFeed(root.local === 'html' ? 'an HTML page' : `the root element is <${printable(root.name)}>, not <rss>, <feed> or <rdf:RDF>`);
  if (root.local === 'feed') return readAtom(doc, root, options.url);
  return readRss(doc, root, options.url);
}

function isFeedRoot(node: XmlNode): boolean {
  const name = node.local;
  if (name === 'rss' || name === 'feed' || name === 'channel') return true;
  return name === 'rdf' && (node.ns === 'rdf' || node.name === 'rdf:rdf');
}

function isBlank(c: number): boolean {
  return c <= 32 || c === 0xfeff || c === 0xa0;
}

function printable(name: string): string {
  const clean = name.replace(/[^\x21-\x7e]/g, '?');
  return clean.length > 40 ? `${clean.slice(0, 40)}…` : clean;
}

function notAFeed(why: string): WorkbenchError {
  return new WorkbenchError('not_a_feed', `not a feed: ${why}`);
}
