import {createHash} from 'node:crypto';
import type {FeedDocument} from '../types.js';

/**
 * A channel document's version (its strong ETag): sha-256 (hex) of what a reader sees — title,
 * description, site and items — never of updatedAt or a build date, so an unchanged channel keeps
 * its ETag across restarts. Same inputs as the renderer's documentVersion(); the lead unifies them.
 */
export function channelVersion(doc: Omit<FeedDocument, 'version'>): string {
  const items = doc.items.map((item) => [item.id, item.title, item.link, item.description, item.author, item.published]);
  return createHash('sha256')
    .update(JSON.stringify([doc.title, doc.description, doc.siteUrl, items]), 'utf8')
    .digest('hex');
}
