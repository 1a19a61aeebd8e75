import {decodeHTMLStrict} from 'entities/decode';

/**
 * The one character-reference decoder of the tree (fb55's `entities`, which htmlparser2 and so
 * html-to-text use too): numeric references, XML's five and all of HTML's named ones. Feeds use
 * HTML names in XML, where they are undefined, so the parser resolves them here as well. Strict:
 * a reference needs its `;`, so a bare `&` in a query string (`?a=1&copy=2`) stays as written;
 * `&#146;` is windows-1252's ’ and NUL, surrogates and out-of-range code points become U+FFFD
 * (HTML's rules). Entities declared in a DOCTYPE are never expanded (no billion laughs).
 */
export function decodeEntities(text: string): string {
  return text.indexOf('&') === -1 ? text : decodeHTMLStrict(text);
}

/** Text → HTML: what `type="text"` content becomes when it is stored as HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}
