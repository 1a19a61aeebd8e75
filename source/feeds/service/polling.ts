import {createPoller, type Poller, type PollerOptions} from '../poller/index.js';
import type {LocalReaderService} from './reader-service.js';

/**
 * Starts the background poller over the service: each round refreshes the feeds whose
 * next_fetch_at has come (the refresh moves it on, success or failure). Stop it before closing
 * the service; stop() waits for the polls in flight, each of which commits or rolls back whole.
 */
export function startPolling(service: LocalReaderService, options: Omit<PollerOptions, 'dueFeeds' | 'refresh'> = {}): Poller {
  const poller = createPoller({
    ...options,
    dueFeeds: (now, limit) => service.dueFeeds(now, limit),
    refresh: (id) => service.refresh(id),
  });
  poller.start();
  return poller;
}

/**
 * Starts the ingestors' scheduler over the service: each round runs the ingestors whose fetch is
 * due (the cycle moves next_fetch_at on, success or failure: interval, rate limit, backoff) or
 * whose digest boundary passed with statuses pending. Same poller as the feeds', its own rounds.
 */
export function startIngestorPolling(service: LocalReaderService, options: Omit<PollerOptions, 'dueFeeds' | 'refresh'> = {}): Poller {
  const poller = createPoller({
    perHostLimit: 4,
    ...options,
    dueFeeds: async (now, limit) => (await service.dueIngestors(now, limit)).map((id) => ({id, url: `ingestor:${id}`})),
    refresh: (id) => service.runIngestor(id),
  });
  poller.start();
  return poller;
}
