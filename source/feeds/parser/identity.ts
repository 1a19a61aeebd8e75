import {createHash} from 'node:crypto';
import type {ParsedItem} from '../types.js';

/**
 * An entry's identity across polls, so a refresh never stores it twice: its guid / id as the feed
 * gives it, else its link, else a hash of what it says. Guid and link are used bare, so a feed
 * whose guids are its links keeps the same keys if it drops or adds guids.
 */
export function articleKey(item: ParsedItem): string {
  const guid = item.guid?.trim();
  if (guid) return guid;
  const link = item.link?.trim();
  if (link) return link;
  const hash = createHash('sha256');
  hash.update(item.title);
  hash.update('\u0000');
  hash.update(item.content ?? item.summary ?? '');
  return `sha256:${hash.digest('hex')}`;
}
