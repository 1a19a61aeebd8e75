import type {FeedFormat} from '../types.js';

const HEAD_BYTES = 64 * 1024;
const FEED_CONTENT_TYPES = /^\s*application\/(?:rss\+xml|atom\+xml|rdf\+xml|feed\+json)\b/i;

/**
 * The feed format a body announces by its root element (rss, feed, rdf:RDF) or, for JSON, by a
 * jsonfeed.org version; null for anything else (HTML, garbage). Reads only the first 64 KB, past
 * the XML declaration, comments, processing instructions and a DOCTYPE.
 */
export function sniffFeedFormat(body: Buffer): FeedFormat | null {
  let text = body.subarray(0, HEAD_BYTES).toString('latin1');
  // UTF-16/32 markup: dropping NULs leaves the ASCII names readable in either byte order.
  if (text.includes('\0')) text = text.replace(/\0/g, '');
  text = text.replace(/^(?:\xEF\xBB\xBF|\xFE\xFF|\xFF\xFE)/, '').trimStart();
  if (text.startsWith('{')) return isJsonFeed(body, text) ? 'json' : null;
  const root = rootElement(text);
  if (root === null) return null;
  const local = root.slice(root.indexOf(':') + 1);
  if (local === 'rss') return 'rss';
  if (local === 'feed') return 'atom';
  if (local === 'RDF') return 'rdf';
  return null;
}

/** Whether a Content-Type names a feed format (text/xml and application/xml do not: pages use them too). */
export function isFeedContentType(contentType: string | null): boolean {
  return contentType !== null && FEED_CONTENT_TYPES.test(contentType);
}

function rootElement(text: string): string | null {
  let at = 0;
  for (;;) {
    while (at < text.length && /\s/.test(text[at]!)) at++;
    if (text.startsWith('<?', at)) at = skipPast(text, at, '?>');
    else if (text.startsWith('<!--', at)) at = skipPast(text, at, '-->');
    else if (/^<!doctype/i.test(text.slice(at, at + 9))) at = skipDoctype(text, at);
    else break;
    if (at < 0) return null;
  }
  const match = /^<([A-Za-z_][\w.:-]*)/.exec(text.slice(at, at + 256));
  return match ? match[1]! : null;
}

function skipPast(text: string, from: number, end: string): number {
  const found = text.indexOf(end, from);
  return found < 0 ? -1 : found + end.length;
}

// A DOCTYPE may carry an internal subset in [...] (entity declarations of an XML bomb, say).
function skipDoctype(text: string, from: number): number {
  const close = text.indexOf('>', from);
  const open = text.indexOf('[', from);
  if (open >= 0 && (close < 0 || open < close)) {
    const subsetEnd = text.indexOf(']', open);
    return subsetEnd < 0 ? -1 : skipPast(text, subsetEnd, '>');
  }
  return close < 0 ? -1 : close + 1;
}

function isJsonFeed(body: Buffer, head: string): boolean {
  if (/"version"\s*:\s*"https?:\/\/jsonfeed\.org\/version\//.test(head)) return true;
  // The version key may come after a long items array.
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8').replace(/^\uFEFF/, ''));
    const version = (parsed as {version?: unknown} | null)?.version;
    return typeof version === 'string' && /jsonfeed\.org\/version\//.test(version);
  } catch {
    return false;
  }
}
