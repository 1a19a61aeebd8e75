import {decodeEntities} from './entities.js';

// Tags, comments and CDATA markers: a '<' followed by a letter, '/', '!' or '?'. A lone '<' ("a < b") stays.
// [^<>] (not [^>]) keeps a run of unclosed '<a' linear.
const MARKUP = /<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[|\]\]>|<[/!?]?[A-Za-z][^<>]*>/g;

// Tags that break a line: they become a space, inline ones (<b>, <a>) vanish.
const BLOCK = /^<\/?(?:p|br|div|li|ul|ol|h[1-6]|tr|td|th|table|blockquote|pre|hr|section|article|header|footer|dd|dt|dl|figure|figcaption)\b/i;

/** HTML (or text that may hold some) as one line of plain text: tags out, references resolved, spaces collapsed. */
export function plainText(html: string): string {
  const stripped = html.indexOf('<') === -1 ? html : dropScripts(html).replace(MARKUP, (tag) => (BLOCK.test(tag) ? ' ' : ''));
  return collapse(stripped.indexOf('&') === -1 ? stripped : decodeEntities(stripped));
}

/** <script> and <style> hold code, not text: cut them with their content (an unclosed one cuts the rest). */
function dropScripts(html: string): string {
  const lower = html.toLowerCase();
  if (lower.indexOf('<script') === -1 && lower.indexOf('<style') === -1) return html;
  let out = '';
  let last = 0;
  const open = /<(script|style)\b/g;
  for (let m = open.exec(lower); m; m = open.exec(lower)) {
    if (m.index < last) continue;
    out += html.slice(last, m.index);
    const close = lower.indexOf(`</${m[1]}`, m.index);
    const end = close === -1 ? -1 : lower.indexOf('>', close);
    last = end === -1 ? html.length : end + 1;
    open.lastIndex = last;
  }
  return out + html.slice(last);
}

/** HTML's idea of whitespace: ASCII only, so a no-break space the author meant survives. */
export function collapse(text: string): string {
  return text.replace(/[ \t\n\r\f]+/g, ' ').replace(/^ | $/g, '');
}

/** A title for an untitled entry: the first words of its text, cut at a word boundary. */
export function firstWords(html: string, maxChars = 80): string {
  const text = plainText(html);
  if (text.length <= maxChars) return text;
  const cut = text.lastIndexOf(' ', maxChars);
  return `${text.slice(0, cut > maxChars / 2 ? cut : maxChars).trimEnd()}…`;
}
