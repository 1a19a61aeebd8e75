import {decodeEntities} from './entities.js';

/**
 * The one HTML-to-one-line converter of the tree: feed titles and summaries (the parser, a hot
 * path: html-to-text there parses 12–28× slower, bench/feed-parse.mjs) and the message of an
 * HTML error page (the error inbox). An article laid out for reading is html-page.ts.
 */

// Tags, comments and CDATA markers: a '<' followed by a letter, '/', '!' or '?'. A lone '<' ("a < b") stays.
// [^<>] (not [^>]) keeps a run of unclosed '<a' linear.
const MARKUP = /<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[|\]\]>|<[/!?]?[A-Za-z][^<>]*>/g;

// Tags that break a line: they become a space, inline ones (<b>, <a>) vanish.
const BLOCK = /^<\/?(?:p|br|div|li|ul|ol|h[1-6]|tr|td|th|table|blockquote|pre|hr|section|article|header|footer|dd|dt|dl|figure|figcaption)\b/i;

// Elements whose contents are never text a reader sees (<head> only repeats the <title>).
// script and style are raw text: an unclosed one runs to the end; the others end at their close tag.
const HIDDEN = /<(script|style|head|noscript|template|svg)\b/g;
const RAW_TEXT = new Set(['script', 'style']);
const TITLE = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i;

/** HTML (or text that may hold some) as one line of plain text: tags out, references resolved, spaces collapsed. */
export function htmlToLine(html: string): string {
  const stripped = html.indexOf('<') === -1 ? html : dropHidden(html).replace(MARKUP, (tag) => (BLOCK.test(tag) ? ' ' : ''));
  return collapseSpaces(stripped.indexOf('&') === -1 ? stripped : decodeEntities(stripped));
}

/** The text of a page's <title>, or '' (a page whose body says nothing still names itself there). */
export function htmlTitle(html: string): string {
  const title = TITLE.exec(html.replace(/<!--[\s\S]*?(?:-->|$)/g, ' '));
  return title ? htmlToLine(title[1]) : '';
}

/** Hidden elements cut with their content. */
function dropHidden(html: string): string {
  const lower = html.toLowerCase();
  if (!['<script', '<style', '<head', '<noscript', '<template', '<svg'].some((open) => lower.includes(open))) return html;
  let out = '';
  let last = 0;
  HIDDEN.lastIndex = 0;
  for (let m = HIDDEN.exec(lower); m; m = HIDDEN.exec(lower)) {
    if (m.index < last) continue;
    out += html.slice(last, m.index);
    const close = lower.indexOf(`</${m[1]}`, m.index);
    const end = close === -1 ? -1 : lower.indexOf('>', close);
    if (end === -1 && !RAW_TEXT.has(m[1]!)) {
      // An unclosed <head> or <svg> hides nothing (its tag goes as markup); an unclosed <script> hides the rest.
      last = m.index;
      HIDDEN.lastIndex = m.index + 1;
      continue;
    }
    last = end === -1 ? html.length : end + 1;
    HIDDEN.lastIndex = last;
  }
  return out + html.slice(last);
}

/** HTML's idea of whitespace: ASCII only, so a no-break space the author meant survives. */
export function collapseSpaces(text: string): string {
  return text.replace(/[ \t\n\r\f]+/g, ' ').replace(/^ | $/g, '');
}
