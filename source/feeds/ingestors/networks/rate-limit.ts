import type {HeaderSource} from '../../../net/index.js';
import type {RateLimit} from '../types.js';

/**
 * The rate-limit headers of the three networks, in one shape:
 * - Mastodon: X-RateLimit-Limit / -Remaining / -Reset (an ISO 8601 time)
 * - Reddit: X-Ratelimit-Remaining / -Used / -Reset (seconds from now)
 * - Bluesky: RateLimit-Limit / -Remaining / -Reset (epoch seconds)
 * - any: Retry-After (seconds or an HTTP date) on 429 and 503.
 */
export function readRateLimit(headers: HeaderSource, now: Date): RateLimit | null {
  const limit = number(headers.get('x-ratelimit-limit') ?? headers.get('ratelimit-limit'));
  const used = number(headers.get('x-ratelimit-used'));
  const remaining = number(headers.get('x-ratelimit-remaining') ?? headers.get('ratelimit-remaining'));
  const resetAt = resetTime(headers.get('x-ratelimit-reset') ?? headers.get('ratelimit-reset'), now);
  const retryAfterSeconds = retryAfter(headers.get('retry-after'), now);
  if (limit === null && remaining === null && resetAt === null && retryAfterSeconds === null) return null;
  return {limit: limit ?? (used !== null && remaining !== null ? used + remaining : null), remaining, resetAt, retryAfterSeconds};
}

function number(text: string | null): number | null {
  if (text === null) return null;
  const value = Number.parseFloat(text);
  return Number.isFinite(value) && value >= 0 ? value : null;
}

/** An ISO time, epoch seconds (large), or seconds from now (small). */
function resetTime(text: string | null, now: Date): string | null {
  if (!text) return null;
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) {
    const value = Number(trimmed);
    const ms = value > 1e9 ? value * 1000 : now.getTime() + value * 1000;
    return new Date(ms).toISOString();
  }
  const ms = Date.parse(trimmed);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

function retryAfter(text: string | null, now: Date): number | null {
  if (!text) return null;
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const ms = Date.parse(trimmed);
  return Number.isFinite(ms) ? Math.max(0, Math.ceil((ms - now.getTime()) / 1000)) : null;
}
