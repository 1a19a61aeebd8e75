import {createHash} from 'node:crypto';
import type {SyndicatedFeed} from './types.js';

/** Bumped when the canonical form below changes, so old ETags never match new bytes. */
const FORM = 'gateway-feed-v2';

/**
 * The document's content version (its strong ETag): sha-256 hex of the title, description, site
 * and every item's id, title, link, description, author, date, enclosures and categories, in that
 * order, as one JSON array (JSON of strings, numbers and null is canonical). Never the build date,
 * updatedAt, the stale flag or max-age: a poll that brings the same items keeps the version, so readers keep
 * getting 304s (RSSHub's lesson).
 */
export function documentVersion(doc: Pick<SyndicatedFeed, 'title' | 'description' | 'siteUrl' | 'items'>): string {
  const items = doc.items.map((item) => [
    item.id,
    item.title,
    item.link,
    item.description,
    item.author,
    item.published,
    // As given, whatever they hold (an item read back from a store is not checked): a change in any
    // field changes the version; the origin poller writes them in one key order.
    item.enclosures ?? [],
    item.categories ?? [],
  ]);
  return createHash('sha256')
    .update(JSON.stringify([FORM, doc.title, doc.description, doc.siteUrl, items]))
    .digest('hex');
}
