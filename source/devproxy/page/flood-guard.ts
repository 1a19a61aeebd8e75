/**
 * A runaway page (an error thrown every frame, a log in a tight loop) must not hang the tab or flood
 * the proxy: at most `perSecond` messages pass each second; the rest are only counted, and the count
 * is reported once as a warn log when the second is over.
 */
export class FloodGuard {
  private windowStart = 0;
  private passed = 0;
  private dropped = 0;
  private timer = 0;

  constructor(
    private readonly perSecond: number,
    private readonly reportDropped: (count: number) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether one more message may go now; a refused one is counted. */
  admit(): boolean {
    const now = this.now();
    if (now - this.windowStart >= 1000) {
      this.flush();
      this.windowStart = now;
      this.passed = 0;
    }
    if (this.passed < this.perSecond) {
      this.passed++;
      return true;
    }
    this.dropped++;
    if (!this.timer) this.timer = window.setTimeout(() => this.flush(), Math.max(0, 1000 - (now - this.windowStart)));
    return false;
  }

  /** Counts messages lost elsewhere (a full queue) into the same report. */
  countDropped(count: number): void {
    this.dropped += count;
    if (!this.timer) this.timer = window.setTimeout(() => this.flush(), 1000);
  }

  private flush(): void {
    if (this.timer) window.clearTimeout(this.timer);
    this.timer = 0;
    if (this.dropped === 0) return;
    const count = this.dropped;
    this.dropped = 0;
    this.reportDropped(count);
  }
}
