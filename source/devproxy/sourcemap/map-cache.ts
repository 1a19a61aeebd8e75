/**
 * The loaded source maps, by script URL: least recently used first out, bounded by count and by
 * the summed size of the map texts (a parsed map costs a few times its text). Entries expire, as
 * a dev server rebuilds a bundle under the same URL (webpack's `main.js`); a load under way is
 * shared, so a burst of errors from one page fetches each map once.
 */
export interface MapCacheLimits {
  entries: number;
  bytes: number;
  maxAgeMs: number;
  now: () => number;
}

interface Entry<T> {
  value: Promise<T | undefined>;
  bytes: number;
  expiresAt: number;
}

export class MapCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private bytes = 0;

  constructor(private readonly limits: MapCacheLimits) {}

  /** The cached value for `key`, or the one `load` gives (with its size in bytes), cached. */
  get(key: string, load: () => Promise<{value: T; bytes: number} | undefined>): Promise<T | undefined> {
    const now = this.limits.now();
    const found = this.entries.get(key);
    if (found && found.expiresAt > now) {
      this.entries.delete(key);
      this.entries.set(key, found);
      return found.value;
    }
    if (found) this.remove(key, found);
    const entry: Entry<T> = {value: Promise.resolve(undefined), bytes: 0, expiresAt: now + this.limits.maxAgeMs};
    entry.value = load().then(
      (loaded) => {
        if (loaded && this.entries.get(key) === entry) {
          entry.bytes = loaded.bytes;
          this.bytes += loaded.bytes;
          this.evict();
        }
        return loaded?.value;
      },
      () => undefined,
    );
    this.entries.set(key, entry);
    this.evict();
    return entry.value;
  }

  get size(): number {
    return this.entries.size;
  }

  get totalBytes(): number {
    return this.bytes;
  }

  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= this.limits.entries && this.bytes <= this.limits.bytes) return;
      this.remove(key, entry);
    }
  }

  private remove(key: string, entry: Entry<T>): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
