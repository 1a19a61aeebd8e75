import {discoverFeeds} from '../discovery/index.js';
import {fetchFeed} from '../fetcher/index.js';
import {articleKey, parseFeed} from '../parser/index.js';
import {nextCheckAt} from '../poller/index.js';
import type {ReaderDeps} from './deps.js';

/** The real pipeline: fetcher, discovery, parser and the poller's schedule. */
export const defaultReaderDeps: ReaderDeps = {
  fetchFeed,
  discoverFeeds: (url) => discoverFeeds(url),
  parseFeed,
  articleKey,
  nextCheckAt,
  now: () => new Date(),
};
