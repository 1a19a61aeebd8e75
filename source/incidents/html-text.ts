/**
 * The readable text of an HTML error page (spec 1, get_errors rule 4): tags stripped, script and
 * style contents dropped, entities decoded, whitespace collapsed.
 */

// Elements whose contents are never text a reader sees (<head> only repeats the <title>).
const INVISIBLE = /<(script|style|head|noscript|template|svg)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const COMMENT = /<!--[\s\S]*?-->/g;
const TITLE = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i;
const TAG = /<\/?([a-zA-Z][a-zA-Z0-9-]*)(?:\s[^>]*)?\/?>|<![^>]*>|<\?[^>]*>/g;
const ENTITY = /&(#[xX][0-9a-fA-F]+|#\d+|[a-zA-Z][a-zA-Z0-9]*);/g;
const WHITESPACE = /\s+/g;
// Inline elements join the text around them; every other tag separates words.
const INLINE = new Set(['a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'dfn', 'em', 'i', 'kbd', 'mark', 'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'var']);
const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', copy: '©', reg: '®', trade: '™',
  hellip: '…', mdash: '—', ndash: '–', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”',
  laquo: '«', raquo: '»', middot: '·', bull: '•', times: '×', rarr: '→', larr: '←', deg: '°',
};

export function htmlToText(html: string): string {
  const visible = html.replace(COMMENT, ' ').replace(INVISIBLE, ' ');
  let text = collapse(decodeEntities(visible.replace(TAG, (_tag, name?: string) => (name && INLINE.has(name.toLowerCase()) ? '' : ' '))));
  if (text === '') {
    // A page that is all <head> still names itself in its <title>.
    const title = TITLE.exec(html.replace(COMMENT, ' '));
    if (title) text = collapse(decodeEntities(title[1].replace(TAG, ' ')));
  }
  return text;
}

export function decodeEntities(text: string): string {
  return text.replace(ENTITY, (whole, body: string) => {
    if (body[0] !== '#') return NAMED[body] ?? NAMED[body.toLowerCase()] ?? whole;
    const code = body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
    const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
    return valid ? String.fromCodePoint(code) : '\uFFFD';
  });
}

function collapse(text: string): string {
  return text.replace(WHITESPACE, ' ').trim();
}
