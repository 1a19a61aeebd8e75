import {Counter, type Registry} from 'prom-client';
import type {ReaderDeps} from '../service/deps.js';

/**
 * `workbench_feed_fetches_total{result}`: every feed fetch a server makes — the reader's (the
 * poller's rounds, refreshes, subscriptions) and the gateway's (its origin polls) — as `ok` (200),
 * `not_modified` (304) or `failure` (it threw).
 */
export function countedFetchFeed(registry: Registry, fetchFeed: ReaderDeps['fetchFeed']): ReaderDeps['fetchFeed'] {
  const fetches = new Counter({
    name: 'workbench_feed_fetches_total',
    help: 'Feed fetches by result: ok (200), not_modified (304) or failure.',
    labelNames: ['result'],
    registers: [registry],
  });
  for (const result of ['ok', 'not_modified', 'failure']) fetches.inc({result}, 0);
  return async (url, options) => {
    try {
      const fetched = await fetchFeed(url, options);
      fetches.inc({result: fetched.status === 'not_modified' ? 'not_modified' : 'ok'});
      return fetched;
    } catch (error) {
      fetches.inc({result: 'failure'});
      throw error;
    }
  };
}
