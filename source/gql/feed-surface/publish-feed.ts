import {WorkbenchError} from '../../core/errors.js';
import {documentVersion, renderFeed, type RenderedFeed, type Representation, type SyndicatedFeed} from '../../syndication/index.js';
import type {GqlModel, GqlRequestContext, GqlTable, TableFeed} from '../types.js';
import {feedItem} from './feed-items.js';
import {readFeedRows} from './read-feed.js';

/** Where the feeds are served: `GET /feeds/<table's GraphQL name>`. */
export const FEEDS_PATH = '/feeds';

/** The feed table of a GraphQL name, or not_found (no such table, or one without `feed-timestamp`). */
export function feedTable(model: GqlModel, name: string): GqlTable & {feed: TableFeed} {
  const table = model.byName.get(name);
  if (!table || table.hidden || !table.feed)
    throw new WorkbenchError('not_found', `no feed "${name.slice(0, 100)}" here: a table is published with feed-timestamp, at ${FEEDS_PATH}/<its GraphQL name>`);
  return table as GqlTable & {feed: TableFeed};
}

/** A feed's URL on a server reached at `baseUrl` (no trailing slash). */
export function feedUrl(baseUrl: string, table: GqlTable): string {
  return `${baseUrl}${FEEDS_PATH}/${encodeURIComponent(table.name)}`;
}

/** The newest rows the user may read, as a feed document; its version hashes what the items show. */
export async function tableFeedDocument(ctx: GqlRequestContext, table: GqlTable & {feed: TableFeed}): Promise<SyndicatedFeed> {
  const rows = await readFeedRows(ctx, table, table.feed);
  const items = rows.map((row) => feedItem(table, table.feed, row));
  const content = {name: table.name, title: table.name, description: `The newest rows of ${table.name}`, siteUrl: null, items};
  // Last-Modified: the newest item's time (an edit or a delete changes the ETag, never this: 304s go by the ETag alone).
  const newest = items.find((item) => Number.isFinite(item.published))?.published ?? 0;
  return {...content, updatedAt: newest, version: documentVersion(content)};
}

const MAX_RENDERED = 256;
// Rendered bytes per representation × feed URL, reused while the version is the same: an unchanged
// table costs one read of its newest rows and a hash, not a render (most of which is sanitising).
const rendered = new Map<string, {version: string; rendered: RenderedFeed}>();

/** One representation of a table's feed for the request's user, at `url`. */
export async function publishTableFeed(ctx: GqlRequestContext, table: GqlTable & {feed: TableFeed}, representation: Representation, url: string): Promise<RenderedFeed> {
  const doc = await tableFeedDocument(ctx, table);
  const key = `${representation} ${url}`;
  const known = rendered.get(key);
  rendered.delete(key);
  if (known && known.version === doc.version) {
    rendered.set(key, known);
    return known.rendered;
  }
  const fresh = renderFeed(doc, representation, {self: url, generator: 'workbench graphql'});
  rendered.set(key, {version: doc.version, rendered: fresh});
  while (rendered.size > MAX_RENDERED) rendered.delete(rendered.keys().next().value!);
  return fresh;
}
