// The syndicated feed surface (spec 3): a table's newest rows as RSS 2.0 and Atom 1.0, read as the request's user may read them.
export {FEEDS_PATH, feedTable, feedUrl, publishTableFeed, tableFeedDocument} from './publish-feed.js';
export {FEED_ITEMS} from './read-feed.js';
export {FeedVersionTimes} from './version-times.js';
