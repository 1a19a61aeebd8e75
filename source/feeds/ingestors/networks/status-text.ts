import {decodeHTML} from 'entities';

const MAX_TEXT = 20_000;

/**
 * Plain text of a post's HTML, for scoring, duplicates and titles (never for display: the
 * article keeps the HTML, sanitised when stored). Posts are small and their HTML simple
 * (paragraphs, breaks, links): cutting tags is enough, and 1,000 posts cost well under a millisecond each.
 */
export function postText(html: string): string {
  const text = html
    .slice(0, MAX_TEXT * 4)
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>\s*<p[^>]*>/gi, '\n\n')
    .replace(/<[^>]*>/g, '');
  return decodeHTML(text)
    .replace(/[ \t]+/g, ' ')
    .trim()
    .slice(0, MAX_TEXT);
}

/** The http(s) links of a post's HTML (`href` of anchors), in order, without duplicates. */
export function htmlLinks(html: string): string[] {
  const links = new Set<string>();
  for (const match of html.matchAll(/<a\s[^>]*href="([^"]+)"/gi)) {
    const href = decodeHTML(match[1]!);
    if (/^https?:\/\//i.test(href)) links.add(href);
  }
  return [...links];
}

/** The http(s) URLs written in plain text. */
export function textLinks(text: string): string[] {
  return [...new Set(text.match(/https?:\/\/[^\s<>"')\]]+/gi) ?? [])];
}
