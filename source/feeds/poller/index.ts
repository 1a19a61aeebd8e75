// Scheduling of feed polls: the background poller, the next-check rule, one-fetch-per-feed.
export {createPoller, type DueFeed, type Poller, type PollerOptions, type PollRound} from './create-poller.js';
export {MAX_CHECK_DELAY_SECONDS, nextCheckAt, retryAfterOf, type NextCheckInput} from './next-check.js';
export {singleFlight, type SingleFlight} from './single-flight.js';
export {hostKey} from './host-key.js';
export {KeyedLimiter} from './keyed-limiter.js';
