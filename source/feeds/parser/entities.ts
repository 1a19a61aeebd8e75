import {c1AsWindows1252} from '../encoding/decode-body.js';
import {NAMED_ENTITIES} from './html-entities.js';

const AMP = 38;
const SEMI = 59;
const HASH = 35;
// An entity name longer than this is not one (`&` followed by prose).
const MAX_ENTITY = 32;

/**
 * Resolves character references in one pass: numeric ones, XML's five and HTML 4's named ones.
 * Anything else (an undefined name, a bare `&` in a query string) stays as written, and
 * entities declared in a DOCTYPE are never expanded (no billion laughs).
 */
export function decodeEntities(text: string): string {
  let amp = text.indexOf('&');
  if (amp === -1) return text;
  let out = '';
  let last = 0;
  while (amp !== -1) {
    const semi = text.indexOf(';', amp + 1);
    if (semi === -1) break;
    if (semi - amp > MAX_ENTITY) {
      amp = text.indexOf('&', amp + 1);
      continue;
    }
    const value = resolve(text, amp + 1, semi);
    if (value !== undefined) {
      out += text.slice(last, amp) + value;
      last = semi + 1;
      amp = text.indexOf('&', last);
    } else {
      amp = text.indexOf('&', amp + 1);
    }
  }
  return last === 0 ? text : out + text.slice(last);
}

function resolve(text: string, from: number, to: number): string | undefined {
  if (from === to) return undefined;
  const xml = predefined(text, from, to - from);
  if (xml !== undefined) return xml;
  if (text.charCodeAt(from) === HASH) {
    const hex = text.charCodeAt(from + 1) === 120 || text.charCodeAt(from + 1) === 88; // x X
    const digits = text.slice(from + (hex ? 2 : 1), to);
    if (!(hex ? /^[0-9a-fA-F]{1,6}$/ : /^[0-9]{1,7}$/).test(digits)) return undefined;
    const code = parseInt(digits, hex ? 16 : 10);
    // NUL, surrogates and out-of-range code points become U+FFFD rather than breaking the string.
    if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
    // &#146; means windows-1252's ’ (HTML's rule for U+0080–U+009F).
    if (code >= 0x80 && code <= 0x9f) return c1AsWindows1252(code);
    return String.fromCodePoint(code);
  }
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === AMP || c === SEMI || c <= 32) return undefined;
  }
  return NAMED_ENTITIES.get(text.slice(from, to));
}

// &lt; &gt; &amp; &quot; &apos; are most of the references in escaped HTML: matched by code, no slicing.
function predefined(text: string, at: number, length: number): string | undefined {
  const c = text.charCodeAt(at);
  if (length === 2 && text.charCodeAt(at + 1) === 116 /* t */) return c === 108 ? '<' : c === 103 ? '>' : undefined;
  if (length === 3 && c === 97 && text.charCodeAt(at + 1) === 109 && text.charCodeAt(at + 2) === 112) return '&';
  if (length === 4 && c === 113 && text.startsWith('quot', at)) return '"';
  if (length === 4 && c === 97 && text.startsWith('apos', at)) return "'";
  return undefined;
}

/** Text → HTML: what `type="text"` content becomes when it is stored as HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}
