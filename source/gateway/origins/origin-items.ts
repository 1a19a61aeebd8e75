import {articleKey} from '../../feeds/parser/index.js';
import type {ParsedFeed, ParsedItem} from '../../feeds/types.js';
import type {FeedItem} from '../types.js';
import {itemMedia} from './item-media.js';

/**
 * An origin's entries as the gateway serves them: identity as the reader keys articles (guid,
 * else link, else a content hash), the item's date or else when the gateway first saw it (kept
 * from the previous copy, so an undated item keeps its date and the copy's version holds still),
 * content before summary, with its enclosures and categories. Newest first; an id the origin repeats is kept once (its first entry).
 */
export function originItems(parsed: ParsedFeed, previous: FeedItem[] | null, now: number): FeedItem[] {
  const firstSeen = new Map((previous ?? []).map((item) => [item.id, item.published]));
  const seen = new Set<string>();
  const items: FeedItem[] = [];
  for (const entry of parsed.items) {
    const id = articleKey(entry);
    if (seen.has(id)) continue;
    seen.add(id);
    items.push({
      id,
      title: entry.title,
      link: entry.link ?? null,
      description: entry.content ?? entry.summary ?? null,
      author: entry.author ?? null,
      published: dateOf(entry) ?? firstSeen.get(id) ?? now,
      ...itemMedia(entry),
    });
  }
  // Stable: entries of one date keep the origin's order.
  return items.sort((a, b) => b.published - a.published);
}

function dateOf(entry: ParsedItem): number | undefined {
  for (const text of [entry.published, entry.updated]) {
    const ms = text === undefined ? Number.NaN : Date.parse(text);
    if (Number.isFinite(ms)) return ms;
  }
  return undefined;
}
