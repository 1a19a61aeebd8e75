/** How often one key may be announced at most: a burst of changes is one notice now and one at the end. */
export const COALESCE_MS = 250;

/**
 * Announces each key at most once per `intervalMs`: the first change at once (the leading edge),
 * any changes during the interval once when it ends (the trailing edge), so the last change is
 * never left unannounced and a burst of any size costs two notices per interval at most. Holds one
 * timer and one flag per key that changed in the last interval.
 */
export class Coalescer<Key> {
  private readonly windows = new Map<Key, {timer: NodeJS.Timeout; pending: boolean}>();
  private closed = false;

  constructor(
    private readonly announce: (key: Key) => void,
    private readonly intervalMs = COALESCE_MS,
  ) {}

  touch(key: Key): void {
    if (this.closed) return;
    const open = this.windows.get(key);
    if (open) {
      open.pending = true;
      return;
    }
    this.announce(key);
    this.open(key);
  }

  /** Drops a key's window (its subscription ended): no trailing notice. */
  forget(key: Key): void {
    const open = this.windows.get(key);
    if (!open) return;
    clearTimeout(open.timer);
    this.windows.delete(key);
  }

  close(): void {
    this.closed = true;
    for (const key of [...this.windows.keys()]) this.forget(key);
  }

  private open(key: Key): void {
    const window = {
      pending: false,
      timer: setTimeout(() => {
        this.windows.delete(key);
        if (!window.pending || this.closed) return;
        this.announce(key);
        this.open(key);
      }, this.intervalMs),
    };
    // A pending notice never keeps the process alive on its own.
    window.timer.unref();
    this.windows.set(key, window);
  }
}
