import type {Representation} from './types.js';

/** Where a representation of a feed is fetched: the feed's URL (RSS, the default, and the landing page) or `…?format=atom`. */
export function representationUrl(feedUrl: string, representation: Representation): string {
  return representation === 'atom' ? `${feedUrl}?format=atom` : feedUrl;
}
