// Feed parsing (spec 2, part A): bytes or text in, ParsedFeed out; identity of entries across polls.
export {parseFeed, type ParseOptions} from './parse-feed.js';
export {articleKey} from './identity.js';
export {parseFeedDate} from './dates.js';
export {MAX_ENCLOSURES} from './enclosures.js';
