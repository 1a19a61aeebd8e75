// The fetch stage of the feed pipeline: URL in, bytes and validators out (see fetch-feed.ts).
export {fetchFeed} from './fetch-feed.js';
export {parseFeedUrl} from './feed-url.js';
export {maxAgeSeconds, retryAfterSeconds} from './cache-headers.js';
export {DEFAULT_MAX_BYTES, DEFAULT_MAX_REDIRECTS, DEFAULT_TIMEOUT_MS} from './limits.js';
export {FEED_ACCEPT, USER_AGENT} from './request-headers.js';
export type {FetchErrorDetails} from './fetch-errors.js';
