import type {Feed} from '../types.js';
import {feedsWithUnread, nextSnoozeEnd, type Store} from '../store/index.js';

/**
 * `GET /feeds` with every unread count, answered from the last answer while it still holds: no
 * commit since (the store's change count: SQLite's data_version, which sees this process's writes
 * and any other's) and no snooze ended since (counts leave snoozed articles out until they wake).
 * Reading 200 feed rows and their snoozed counts costs milliseconds at 1M articles; the check
 * costs microseconds. Stores without a change count (PostgreSQL, MySQL) always read.
 */
export function feedListCache(store: Store): (nowMs: number) => Promise<Feed[]> {
  let kept: {change: number; until: number; feeds: Feed[]} | undefined;
  return async (nowMs) => {
    const change = store.changeCount?.();
    if (change === undefined) return feedsWithUnread(store.db, store.dialect, nowMs);
    if (kept && kept.change === change && nowMs < kept.until) return kept.feeds;
    // The change count is read before the rows: a commit landing in between makes the next call read again.
    const feeds = await feedsWithUnread(store.db, store.dialect, nowMs);
    kept = {change, until: (await nextSnoozeEnd(store.db, nowMs)) ?? Infinity, feeds};
    return feeds;
  };
}
