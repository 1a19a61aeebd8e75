import {generateAtomFeed} from 'feedsmith';
import {withoutCdataPadding} from '../feeds/cdata-padding.js';
import {representationUrl} from './links.js';
import {publishedFeed, publishedItems, type PublishedItem} from './published-items.js';
import type {FeedLinks, SyndicatedFeed} from './types.js';

// What atom:id must be: an absolute IRI. Only these schemes are kept, since readers without a link
// may open the id (a javascript: one would run).
const IRI = /^(?:https?|urn|tag):[^\s<>"{}|\\^`]+$/i;

/**
 * Atom 1.0 of a document: link rel=self (`?format=atom`), rel=hub (when there is a hub), rel=alternate (the origin's
 * site), the feed's URL as its id, entries with `content type="html"` (sanitised), an alternate
 * link, a `link rel="enclosure"` per enclosure and a `category term` per category. `updated` is
 * when the content last changed, never now.
 */
export function renderAtom(doc: SyndicatedFeed, links: FeedLinks): string {
  const feed = publishedFeed(doc);
  const feedId = representationUrl(links.self, 'rss');
  const feedPage = representationUrl(links.self, 'html');
  const xml = generateAtomFeed({
    id: feedId,
    title: {value: feed.title, type: 'text'},
    subtitle: feed.description ? {value: feed.description, type: 'text'} : undefined,
    updated: feed.updated,
    generator: {text: links.generator},
    // Atom wants an author on the feed unless every entry has one.
    authors: [{name: feed.title}],
    links: [
      {href: representationUrl(links.self, 'atom'), rel: 'self', type: 'application/atom+xml'},
      ...(links.hub ? [{href: links.hub, rel: 'hub'}] : []),
      ...(feed.siteUrl ? [{href: feed.siteUrl, rel: 'alternate', type: 'text/html'}] : []),
    ],
    entries: publishedItems(doc).map((item, index) => ({
      id: entryId(feedId, item, index),
      title: {value: item.title, type: 'text'},
      updated: item.published,
      published: item.published,
      // An entry with no content must have an alternate link (RFC 4287 4.1.1): one without a link
      // of its own (a channel item of a title alone) links to the feed's page, which shows it.
      links: [
        ...[{href: item.link ?? (item.html ? undefined : feedPage), rel: 'alternate', type: 'text/html'}].filter((link) => link.href !== undefined),
        ...item.enclosures.map((enclosure) => ({href: enclosure.url, rel: 'enclosure', type: enclosure.type, length: enclosure.length})),
      ],
      // No description, no content element (an empty <content/> is an empty body to readers).
      content: item.html ? {value: item.html, type: 'html'} : undefined,
      authors: item.author ? [{name: item.author}] : undefined,
      categories: item.categories.length ? item.categories.map((term) => ({term})) : undefined,
    })),
  });
  return withoutCdataPadding(xml);
}

/** The item's id when it is an IRI (an origin's tag: or http: id), else one made under the feed's URL from it. */
function entryId(feedId: string, item: PublishedItem, index: number): string {
  if (IRI.test(item.id)) return item.id;
  return `${feedId}#${encodeURIComponent(item.id || item.link || `item-${index}`)}`;
}
