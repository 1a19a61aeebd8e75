import {generateRssFeed} from 'feedsmith';
import {withoutCdataPadding} from '../feeds/cdata-padding.js';
import {representationUrl} from './links.js';
import {publishedFeed, publishedItems} from './published-items.js';
import type {FeedLinks, SyndicatedFeed} from './types.js';

/**
 * RSS 2.0 of a document, as list-rss.ts writes the reader's shared lists (feedsmith, the same
 * sanitising): `atom:link` rel=self and rel=hub when there is a hub (WebSub discovery), a guid per item
 * (isPermaLink only when it is the link), dates in RFC 822, authors as dc:creator (RSS `<author>`
 * must be an e-mail address). lastBuildDate is when the content last changed, never now: the
 * bytes of one version stay the same.
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
    })),
  });
  return withoutCdataPadding(xml);
}
