/**
 * Last-Modified for a table feed: when the version a reader gets (its ETag, the items shown
 * hashed) was first served to that reader's view of the feed. The newest item's date cannot say
 * it: an edit or a soft delete changes a feed without a newer timestamp; a new version is first
 * served after the change. HTTP dates count seconds, so each version of one view gets a second
 * later than the version before it — a version first served within that second gets no date until
 * it is served in a later one (no two versions share a date, and none is dated ahead of the clock).
 * Kept in memory, least recently used dropped first: after a restart, or for a version dropped, it
 * counts as new — a client gets the feed once more, never a wrong 304.
 */
export class FeedVersionTimes {
  /** `view \n etag` → the version's date (ms, whole seconds). */
  private readonly dated = new Map<string, number>();
  /** view → the latest date given to one of its versions. */
  private readonly latest = new Map<string, number>();

  constructor(private readonly capacity = 10_000) {}

  /** The date of `etag` as `view` (one table, one representation, one reader) serves it now; undefined: none yet. */
  since(view: string, etag: string, nowMs: number): number | undefined {
    const key = `${view}\n${etag}`;
    const known = this.dated.get(key);
    if (known !== undefined) {
      this.touch(this.dated, key, known);
      return known;
    }
    const second = Math.floor(nowMs / 1000) * 1000;
    if (second <= (this.latest.get(view) ?? -Infinity)) return undefined;
    this.touch(this.dated, key, second);
    this.touch(this.latest, view, second);
    return second;
  }

  // Re-inserted on every use: the least recently used go first.
  private touch(map: Map<string, number>, key: string, value: number): void {
    map.delete(key);
    if (map.size >= this.capacity) map.delete(map.keys().next().value as string);
    map.set(key, value);
  }
}
