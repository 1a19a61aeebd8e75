/**
 * How long the origin asks us to wait, in whole seconds, from the response headers. Dates are
 * measured against the response's own Date header when it has one, so a skewed local clock does
 * not turn "one hour" into "already expired".
 */

/** The part of response headers read here (WHATWG Headers or the outbound client's). */
export interface HeaderSource {
  get(name: string): string | null;
}

/** Cache-Control max-age, else Expires − Date; null when neither says anything usable. */
export function maxAgeSeconds(headers: HeaderSource, nowMs = Date.now()): number | null {
  const cacheControl = headers.get('cache-control');
  if (cacheControl) {
    const match = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?\s*(?:,|$)/i.exec(cacheControl);
    if (match) return clampSeconds(Number(match[1]));
  }
  const expires = headers.get('expires');
  if (expires === null) return null;
  const expiresMs = Date.parse(expires);
  // An invalid Expires (often "0" or "-1") means "already expired" (RFC 9111 §5.3).
  if (!Number.isFinite(expiresMs)) return 0;
  return clampSeconds((expiresMs - referenceMs(headers, nowMs)) / 1000);
}

/** Retry-After as delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterSeconds(headers: HeaderSource, nowMs = Date.now()): number | null {
  const value = headers.get('retry-after')?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return clampSeconds(Number(value));
  // Date.parse reads "-5" as a year; an HTTP date always names its month.
  const atMs = /[a-z]{3}/i.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(atMs)) return null;
  return clampSeconds((atMs - referenceMs(headers, nowMs)) / 1000);
}

function referenceMs(headers: HeaderSource, nowMs: number): number {
  const date = Date.parse(headers.get('date') ?? '');
  return Number.isFinite(date) ? date : nowMs;
}

// Negative waits mean "now"; absurd ones are capped later by the scheduler, not here.
function clampSeconds(seconds: number): number {
  return Math.max(0, Math.round(seconds));
}
