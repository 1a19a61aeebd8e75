import {WorkbenchError} from '../core/errors.js';
import type {Representation} from './types.js';

export interface RepresentationQuery {
  /** `?format=`: rss, atom or html (fastify gives an array when it is repeated). */
  format?: string | string[];
}

export interface RepresentationHeaders {
  accept?: string | string[];
  userAgent?: string | string[];
}

const FORMATS: readonly Representation[] = ['rss', 'atom', 'html'];
const HTML_TYPES = ['text/html', 'application/xhtml+xml'];
const FEED_TYPES = ['application/rss+xml', 'application/atom+xml'];

// Browsers all still say Mozilla/ (Opera/ for old Presto Opera). Feed readers and crawlers that
// borrow it say who they are (Feedly, Inoreader, Googlebot): those get the feed.
const BROWSER = /^(?:Mozilla|Opera)\//;
const NOT_A_BROWSER = /bot\b|crawl|spider|feed|rss|atom|podcast|reader|fetcher|newsboat|curl|wget/i;

/**
 * The representation a feed's GET answers with (spec 2, part B; the GraphQL service's `/feeds/<table>` alike):
 * 1. `?format=atom` gives Atom 1.0 and beats Accept; `?format=rss` RSS 2.0; `?format=html` the
 *    landing page. Any other value is invalid_argument naming the choices.
 * 2. A browser (by its User-Agent) that prefers `text/html` (or XHTML) to the feed types in its
 *    Accept gets the HTML landing page — so a link to the feed opened in a browser shows what it
 *    is and the URLs to copy, while curl and feed readers get the feed.
 * 3. Otherwise RSS 2.0: the default representation (the spec leaves it open; RSS 2.0 is what every
 *    reader reads, and it is what a request without negotiation gets).
 */
export function chooseRepresentation(query: RepresentationQuery, headers: RepresentationHeaders): Representation {
  const format = query.format;
  if (Array.isArray(format)) throw new WorkbenchError('invalid_argument', `give format once: one of ${FORMATS.join(', ')}`);
  if (format !== undefined && format !== '') {
    const chosen = FORMATS.find((choice) => choice === format.toLowerCase());
    if (!chosen) throw new WorkbenchError('invalid_argument', `format must be one of ${FORMATS.join(', ')}, not ${JSON.stringify(format.slice(0, 40))}`);
    return chosen;
  }
  return isBrowser(headers.userAgent) && prefersHtml(headers.accept) ? 'html' : 'rss';
}

function isBrowser(userAgent: string | string[] | undefined): boolean {
  const value = Array.isArray(userAgent) ? userAgent.join(' ') : (userAgent ?? '');
  return BROWSER.test(value) && !NOT_A_BROWSER.test(value);
}

/** HTML named with a higher quality than any feed type; a wildcard (`text/*`, any type) asks for nothing in particular. */
function prefersHtml(accept: string | string[] | undefined): boolean {
  const qualities = acceptQualities(Array.isArray(accept) ? accept.join(',') : (accept ?? ''));
  const html = Math.max(0, ...HTML_TYPES.map((type) => qualities.get(type) ?? 0));
  const feed = Math.max(0, ...FEED_TYPES.map((type) => qualities.get(type) ?? 0));
  return html > 0 && html > feed;
}

/** Each media type of an Accept header with its q (1 when absent, 0 when malformed; the highest when named twice). */
function acceptQualities(accept: string): Map<string, number> {
  const qualities = new Map<string, number>();
  for (const range of accept.slice(0, 4096).split(',')) {
    const [type = '', ...parameters] = range.split(';');
    const name = type.trim().toLowerCase();
    if (!name) continue;
    let q = 1;
    for (const parameter of parameters) {
      const [key = '', value = ''] = parameter.split('=');
      // RFC 9110 qvalue; a malformed one counts as 0 (the range asks for nothing we can trust).
      if (key.trim().toLowerCase() === 'q') q = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(value.trim()) ? Number(value) : 0;
    }
    qualities.set(name, Math.max(q, qualities.get(name) ?? 0));
  }
  return qualities;
}
