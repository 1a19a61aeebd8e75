import {describeError} from '../core/errors.js';
import type {FeedRefreshOutcome, ReaderService} from './contracts.js';

/**
 * ReaderService.refreshAll over a reader's own refresh, for the local service and the HTTP client
 * alike. One at a time: the fetcher limits requests per host anyway, and a failing feed (or one
 * gone since its id was read) must not stop the rest.
 */
export async function refreshAll(reader: Pick<ReaderService, 'listFeeds' | 'refresh'>, ids?: number[]): Promise<FeedRefreshOutcome[]> {
  const outcomes: FeedRefreshOutcome[] = [];
  for (const id of ids ?? (await reader.listFeeds()).map((feed) => feed.id)) {
    try {
      outcomes.push({id, ...(await reader.refresh(id))});
    } catch (error) {
      outcomes.push({id, error: describeError(error)});
    }
  }
  return outcomes;
}
