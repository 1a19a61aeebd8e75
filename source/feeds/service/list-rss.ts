import {generateRssFeed} from 'feedsmith';
import {WorkbenchError} from '../../core/errors.js';
import {findPublicListRow, listEntries, millis, parseCategories, type ListEntryRow} from '../store/index.js';
import type {ReaderContext} from './context.js';

/** The newest items a shared list publishes; RSS readers poll, they do not page. */
const RSS_ITEMS = 100;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{1,64}$/;

/** RSS 2.0 of a public list by its share token; a private list or an unknown token is not_found. */
export async function listRss(context: ReaderContext, token: string): Promise<string> {
  const {db} = context.store;
  const list = TOKEN_SHAPE.test(token) ? await findPublicListRow(db, token) : undefined;
  if (!list) throw new WorkbenchError('not_found', 'no public list has this token');
  const self = context.rssUrl(token);
  const entries = await listEntries(db, list.id, RSS_ITEMS);
  const newest = entries[0] ? millis(entries[0].added_at) : null;
  return generateRssFeed({
    title: list.title,
    link: self,
    description: `Articles saved to the list “${list.title}”`,
    generator: 'workbench',
    lastBuildDate: newest === null ? undefined : new Date(newest),
    atom: {links: [{href: self, rel: 'self', type: 'application/rss+xml'}]},
    items: entries.map(rssItem),
  });
}

function rssItem(entry: ListEntryRow) {
  const published = millis(entry.published_at);
  const categories = parseCategories(entry.categories);
  return {
    title: entry.title || '(untitled)',
    link: entry.link ?? undefined,
    description: entry.summary ?? entry.content ?? undefined,
    // A link is the natural permalink; without one the article id keeps the guid stable.
    guid: entry.link ? {value: entry.link, isPermaLink: true} : {value: `workbench-article-${entry.id}`, isPermaLink: false},
    pubDate: published === null ? undefined : new Date(published),
    categories: categories.length ? categories.map((name) => ({name})) : undefined,
    // RSS <author> must be an e-mail address; names go in dc:creator.
    dc: entry.author ? {creators: [entry.author]} : undefined,
  };
}
