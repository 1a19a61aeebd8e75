import {generateRssFeed} from 'feedsmith';
import {withoutCdataPadding} from '../feeds/cdata-padding.js';
import {representationUrl} from './links.js';
import {publishedFeed, publishedItems, type PublishedItem} from './published-items.js';
import type {FeedLinks, SyndicatedFeed} from './types.js';

/**
 * RSS 2.0 of a document, as list-rss.ts writes the reader's shared lists (feedsmith, the same
 * sanitising): `atom:link` rel=self and rel=hub when there is a hub (WebSub discovery), a guid per item
 * (isPermaLink only when it is the link), dates in RFC 822, authors as dc:creator (RSS `<author>`
 * must be an e-mail address), a `<category>` per category, the first enclosure as `<enclosure>` (RSS
 * allows one; RSS Best Practices) and every enclosure as Media RSS `<media:content>` (the namespace
 * is declared only when an item has one). lastBuildDate is when the content last changed, never
 * now: the bytes of one version stay the same.
 */
export function renderRss(doc: SyndicatedFeed, links: FeedLinks): string {
  const feed = publishedFeed(doc);
  const self = representationUrl(links.self, 'rss');
  const xml = generateRssFeed({
    title: feed.title,
    link: feed.siteUrl ?? self,
    description: feed.description ?? feed.title,
    generator: links.generator,
    lastBuildDate: feed.updated,
    atom: {
      links: [{href: self, rel: 'self', type: 'application/rss+xml'}, ...(links.hub ? [{href: links.hub, rel: 'hub'}] : [])],
    },
    items: publishedItems(doc).map((item) => ({
      title: item.title,
      link: item.link,
      description: item.html,
      guid: item.id ? {value: item.id, isPermaLink: item.id === item.link} : undefined,
      pubDate: item.published,
      dc: item.author ? {creators: [item.author]} : undefined,
      categories: item.categories.length ? item.categories.map((name) => ({name})) : undefined,
      ...rssEnclosures(item),
    })),
  });
  return withoutCdataPadding(xml);
}

/**
 * `<enclosure url length type/>` of the first, `<media:content url type fileSize duration/>` of each.
 * RSS requires all three attributes: an unknown length is written 0 (the convention readers take as
 * unknown); an unknown type is left out rather than invented, which would mislabel the file.
 */
function rssEnclosures(item: PublishedItem) {
  const [first] = item.enclosures;
  if (!first) return {};
  return {
    enclosures: [{url: first.url, length: first.length ?? 0, type: first.type}],
    media: {contents: item.enclosures.map((enclosure) => ({url: enclosure.url, type: enclosure.type, fileSize: enclosure.length, duration: enclosure.durationSeconds}))},
  };
}
