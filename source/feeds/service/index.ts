// The reader's logic (spec 2, part A): subscriptions, polls, articles, lists, OPML over the store.
export {createReaderService, DEFAULT_BASE_URL, type LocalReaderService, type ReaderServiceOptions} from './reader-service.js';
export {startPolling, startIngestorPolling} from './polling.js';
export {defaultReaderDeps} from './default-deps.js';
export type {ReaderDeps, ScheduleInput} from './deps.js';
export {DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE} from './validate.js';
