import type {FeedTemplate} from '../types.js';

/**
 * `{column}` placeholders in literal text (`{title} by {author}`, `https://example.com/p/{slug}`).
 * A brace that opens no complete placeholder — `{`, `{}`, `{a` with no end, `{a{b}}` (nested), a
 * `}` with no `{` — is an error naming where it is, never literal text: a typo would otherwise be
 * published as braces.
 */
export function parseTemplate(template: string): {parts: FeedTemplate} | {error: string} {
  const parts: FeedTemplate = [];
  let text = '';
  let at = 0;
  while (at < template.length) {
    const char = template[at]!;
    if (char === '}') return {error: `a "}" at character ${at + 1} closes no placeholder`};
    if (char !== '{') {
      text += char;
      at += 1;
      continue;
    }
    const end = template.indexOf('}', at + 1);
    if (end === -1) return {error: `the placeholder at character ${at + 1} has no closing "}"`};
    const name = template.slice(at + 1, end);
    if (name.includes('{')) return {error: `placeholders do not nest (character ${at + 1})`};
    if (name.trim() === '') return {error: `the placeholder at character ${at + 1} names no column`};
    if (text) parts.push({text});
    text = '';
    parts.push({column: name.trim()});
    at = end + 1;
  }
  if (text) parts.push({text});
  return {parts};
}

/** Whether a value is written as a template (it has a brace) rather than a bare column name. */
export function isTemplate(value: string): boolean {
  return value.includes('{') || value.includes('}');
}
