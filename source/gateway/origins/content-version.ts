import {createHash} from 'node:crypto';
import type {FeedItem} from '../types.js';

export interface OriginContent {
  title: string;
  description: string | null;
  siteUrl: string | null;
  items: FeedItem[];
}

/**
 * The version of an origin's copy: sha-256 (hex) of what is served from it — title, description,
 * site and items — and never of the origin's build dates or headers, so an origin that rebuilds
 * the same items every poll keeps one version (one ETag, one Last-Modified, no WebSub push).
 */
export function contentVersion(content: OriginContent): string {
  const items = content.items.map((item) => [item.id, item.title, item.link, item.description, item.author, item.published]);
  return createHash('sha256')
    .update(JSON.stringify([content.title, content.description, content.siteUrl, items]))
    .digest('hex');
}

/** The served version when the config gives the feed its own title: the copy's version and that title. */
export function titledVersion(version: string, title: string | undefined): string {
  return title === undefined ? version : createHash('sha256').update(`${version}\u0000${title}`).digest('hex');
}
