import {generateRssFeed} from 'feedsmith';
import {WorkbenchError} from '../../core/errors.js';
import {findPublicListRow, listEntries, loadEnclosures, millis, parseCategories, type ListEntryRow} from '../store/index.js';
import type {Enclosure} from '../types.js';
import {httpLink, safeHtml} from '../safe-html.js';
import {xmlChars} from '../xml-chars.js';
import {withoutCdataPadding} from '../cdata-padding.js';
import type {ReaderContext} from './context.js';

/** The newest items a shared list publishes; RSS readers poll, they do not page. */
const RSS_ITEMS = 100;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * RSS 2.0 of a public list by its share token; a private list or an unknown token is not_found.
 * Whatever the feeds sent, the document is well-formed XML (no control characters) and its HTML
 * is sanitised: republished under this server's address, a feed's `<script>` or `onerror` would
 * run in every reader that renders it. `lastBuildDate` is when the list last changed (an item
 * added or removed): the HTTP face sends it as Last-Modified.
 */
export async function listRss(context: ReaderContext, token: string): Promise<string> {
  const {db} = context.store;
  const list = TOKEN_SHAPE.test(token) ? await findPublicListRow(db, token) : undefined;
  if (!list) throw new WorkbenchError('not_found', 'no public list has this token');
  const self = context.rssUrl(token);
  const entries = await listEntries(db, list.id, RSS_ITEMS);
  const enclosures = await loadEnclosures(
    db,
    entries.map((entry) => Number(entry.id)),
    context.store.dialect,
  );
  const title = xmlChars(list.title);
  const xml = generateRssFeed({
    title,
    link: self,
    description: `Articles saved to the list “${title}”`,
    generator: 'workbench',
    lastBuildDate: new Date(millis(list.changed_at) ?? millis(list.created_at) ?? 0),
    atom: {links: [{href: self, rel: 'self', type: 'application/rss+xml'}]},
    items: entries.map((entry) => rssItem(entry, enclosures.get(Number(entry.id)) ?? [])),
  });
  return withoutCdataPadding(xml);
}

function rssItem(entry: ListEntryRow, enclosures: Enclosure[]) {
  const published = millis(entry.published_at);
  const categories = parseCategories(entry.categories).map(xmlChars).filter(Boolean);
  const link = httpLink(entry.link);
  const html = entry.summary ?? entry.content;
  return {
    title: xmlChars(entry.title) || '(untitled)',
    link,
    description: html ? safeHtml(html, link) : undefined,
    // A link is the natural permalink; without one the article id keeps the guid stable.
    guid: link ? {value: link, isPermaLink: true} : {value: `workbench-article-${entry.id}`, isPermaLink: false},
    pubDate: published === null ? undefined : new Date(published),
    categories: categories.length ? categories.map((name) => ({name})) : undefined,
    // RSS <author> must be an e-mail address; names go in dc:creator.
    dc: entry.author && xmlChars(entry.author) ? {creators: [xmlChars(entry.author)]} : undefined,
    ...rssEnclosures(enclosures),
  };
}

/**
 * RSS 2.0 allows one <enclosure> per item (RSS Best Practices: podcast clients read only one), so
 * the first is it; an item with more lists every one as Media RSS <media:content>, which readers
 * that know several (ours, Miniflux, FreshRSS) take. RSS requires length and type: an unknown
 * length is 0 and an unknown type application/octet-stream, as Best Practices says.
 */
function rssEnclosures(stored: Enclosure[]) {
  // XML cannot carry control characters, whatever wrote the store.
  const enclosures = stored.map((enclosure) => ({...enclosure, url: xmlChars(enclosure.url), type: enclosure.type && xmlChars(enclosure.type)}));
  const [first] = enclosures;
  if (!first) return {};
  return {
    enclosures: [{url: first.url, length: first.length ?? 0, type: first.type || 'application/octet-stream'}],
    // What podcast apps read for the episode's playing time.
    itunes: first.durationSeconds === undefined ? undefined : {duration: first.durationSeconds},
    media:
      enclosures.length > 1
        ? {contents: enclosures.map((enclosure) => ({url: enclosure.url, type: enclosure.type || undefined, fileSize: enclosure.length, duration: enclosure.durationSeconds}))}
        : undefined,
  };
}
