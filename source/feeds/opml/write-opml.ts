import {generateOpml} from 'feedsmith';
import type {Feed} from '../types.js';

/** OPML 2.0 of the subscriptions: one folder outline per category, uncategorised feeds at the top level. */
export function writeOpml(feeds: Feed[], now: Date): string {
  const folders = new Map<string, Feed[]>();
  const loose: Feed[] = [];
  for (const feed of feeds) {
    if (!feed.category) loose.push(feed);
    else folders.set(feed.category, [...(folders.get(feed.category) ?? []), feed]);
  }
  const outline = (feed: Feed) => ({text: feed.title, title: feed.title, type: 'rss', xmlUrl: feed.url, htmlUrl: feed.siteUrl ?? undefined});
  const grouped = [...folders].sort(([a], [b]) => a.localeCompare(b)).map(([name, members]) => ({text: name, title: name, outlines: members.map(outline)}));
  return generateOpml({
    head: {title: 'workbench subscriptions', dateCreated: now},
    body: {outlines: [...grouped, ...loose.map(outline)]},
  });
}
