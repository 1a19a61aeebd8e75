import type {ParsedItem} from '../../../../source/feeds/types.js';

/** `count` feed items, newest first like a feed lists them, one hour apart from `newestMs` down. */
export function fakeItems(prefix: string, count: number, newestMs = Date.UTC(2025, 0, 6, 9), options: {categories?: (index: number) => string[]} = {}): ParsedItem[] {
  return Array.from({length: count}, (_, index) => ({
    guid: `${prefix}-${index}`,
    title: `${prefix} item ${index}`,
    link: `https://example.com/${prefix}/${index}`,
    author: 'Ada',
    published: new Date(newestMs - index * 3_600_000).toISOString(),
    summary: `Summary of ${prefix} ${index}`,
    content: `<p>Body of ${prefix} ${index}</p>`,
    categories: options.categories?.(index) ?? [`topic-${index % 3}`],
  }));
}

export const keyed = (items: ParsedItem[]) => items.map((item) => ({key: item.guid ?? item.link ?? item.title, item}));
