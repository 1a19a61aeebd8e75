/**
 * A token bucket: `burst` messages at once, then `perSecond` on average. A page in an error loop
 * (thousands of errors a second) costs the proxy a counter per extra message, nothing more.
 */
export class TokenBucket {
  private tokens: number;
  private updated: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    now = performance.now(),
  ) {
    this.tokens = burst;
    this.updated = now;
  }

  take(now = performance.now()): boolean {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.updated) * this.perSecond) / 1000);
    this.updated = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
