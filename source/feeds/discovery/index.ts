// Subscription discovery: which feeds a URL leads to (see discover-feeds.ts).
export {discoverFeeds, type DiscoverOptions} from './discover-feeds.js';
export {feedLinks} from './html-links.js';
export {isFeedContentType, sniffFeedFormat} from './sniff.js';
export {WELL_KNOWN_FEED_PATHS, wellKnownCandidates} from './well-known.js';
export type {FeedTitleParser} from './default-parser.js';
