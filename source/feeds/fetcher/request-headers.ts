import type {FetchOptions} from '../contracts.js';
import {conditionalHeaders} from './conditional.js';

/** Origins that rate-limit or block unknown clients can tell who is polling. */
export const USER_AGENT = 'workbench-feed-reader/0.1 (+https://github.com/workbench; polite poller)';

// Feeds first; HTML last, since discovery fetches pages through the same function.
export const FEED_ACCEPT =
  'application/rss+xml, application/atom+xml, application/feed+json, application/rdf+xml;q=0.9, application/xml;q=0.9, text/xml;q=0.9, application/json;q=0.8, text/html;q=0.7, */*;q=0.5';

export function requestHeaders(options: FetchOptions): Record<string, string> {
  return {
    'user-agent': USER_AGENT,
    accept: FEED_ACCEPT,
    // The outbound client decodes all three (under the body cap); br often halves the bytes of a large feed.
    'accept-encoding': 'gzip, deflate, br',
    ...conditionalHeaders(options),
  };
}
