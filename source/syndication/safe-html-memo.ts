import {safeHtml} from '../feeds/safe-html.js';

/** Characters of HTML (in and out) the memo keeps; past it the least recently used go. */
const MAX_CHARS = 8_000_000;

const memo = new Map<string, string>();
let chars = 0;

/**
 * safeHtml, remembered by input: sanitize-html is most of a render's cost, and a new version of a
 * feed (one post to a channel, one new origin item) shares all its other items with the last one,
 * and three representations share them all. Pure function, so one memo serves every document.
 */
export function memoSafeHtml(html: string, base: string | undefined): string {
  const key = `${base ?? ''}\n${html}`;
  const known = memo.get(key);
  if (known !== undefined) {
    memo.delete(key);
    memo.set(key, known);
    return known;
  }
  const clean = safeHtml(html, base);
  if (key.length + clean.length > MAX_CHARS / 4) return clean;
  memo.set(key, clean);
  chars += key.length + clean.length;
  for (const [oldKey, oldValue] of memo) {
    if (chars <= MAX_CHARS) break;
    memo.delete(oldKey);
    chars -= oldKey.length + oldValue.length;
  }
  return clean;
}
