import sanitizeHtml from 'sanitize-html';
import {xmlChars} from './xml-chars.js';

/**
 * What a feed this program republishes (a reader's shared list, the gateway's feeds) may carry:
 * republished under our address, a feed's `<script>`, `onerror` or `javascript:` link would run
 * in every reader that renders it.
 */

/**
 * Article HTML as other readers may render it: sanitize-html's allow-list (text formatting,
 * links, lists, tables, quotes, code) plus images and figures; no script, style, iframe, form or
 * event handler, only http(s), mailto and tel URLs. Relative link and image URLs are made absolute
 * against the article's link. The result holds only characters XML allows.
 */
export function safeHtml(html: string, base: string | undefined): string {
  const resolve = (attribute: string) => (tagName: string, attribs: sanitizeHtml.Attributes) => {
    const value = attribs[attribute];
    if (value !== undefined && base) {
      try {
        attribs[attribute] = new URL(value, base).href;
      } catch {
        delete attribs[attribute];
      }
    }
    return {tagName, attribs};
  };
  return xmlChars(
    sanitizeHtml(xmlChars(html), {
      allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'figure', 'figcaption', 'picture'],
      allowedAttributes: {a: ['href', 'title'], img: ['src', 'alt', 'title', 'width', 'height'], '*': ['lang', 'dir']},
      allowedSchemes: ['http', 'https', 'mailto', 'tel'],
      allowProtocolRelative: false,
      transformTags: {a: resolve('href'), img: resolve('src')},
    }),
  );
}

/** Only absolute http(s) links are published (a relative one means nothing outside its feed, a javascript: one is an attack). */
export function httpLink(link: string | null | undefined): string | undefined {
  if (!link) return undefined;
  try {
    const url = new URL(xmlChars(link));
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
