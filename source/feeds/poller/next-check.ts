import {WorkbenchError} from '../../core/errors.js';

/** No origin header or failure streak pushes a feed further out than this (unless its own interval is longer). */
export const MAX_CHECK_DELAY_SECONDS = 24 * 60 * 60;

export interface NextCheckInput {
  now: Date;
  /** The feed's polling interval. */
  intervalMinutes: number;
  /** RSS <ttl>. */
  ttlMinutes?: number | null;
  /** Cache-Control max-age or Expires of the last response. */
  maxAgeSeconds?: number | null;
  /** Retry-After of the last response (a 429 or 503 carries it in its error details). */
  retryAfterSeconds?: number | null;
  /** Polls in a row that failed (429, 5xx, timeouts, any error); 0 after a success. */
  consecutiveFailures?: number;
}

/**
 * When to poll a feed next: the longest of the interval, <ttl>, max-age/Expires and Retry-After
 * (Miniflux's rule), with the interval doubled for each consecutive failure, capped at 24 h.
 */
export function nextCheckAt(input: NextCheckInput): Date {
  const nowMs = input.now instanceof Date ? input.now.getTime() : Number.NaN;
  if (!Number.isFinite(nowMs)) throw new WorkbenchError('invalid_argument', 'nextCheckAt needs a valid `now` date');
  if (!(Number.isFinite(input.intervalMinutes) && input.intervalMinutes > 0)) {
    throw new WorkbenchError('invalid_argument', `a polling interval must be a positive number of minutes, not ${input.intervalMinutes}`);
  }
  const intervalSeconds = input.intervalMinutes * 60;
  const failures = Math.max(0, Math.floor(input.consecutiveFailures ?? 0));
  const backedOff = intervalSeconds * 2 ** Math.min(failures, 32);
  const wanted = Math.max(backedOff, seconds(input.ttlMinutes) * 60, seconds(input.maxAgeSeconds), seconds(input.retryAfterSeconds));
  const cap = Math.max(MAX_CHECK_DELAY_SECONDS, intervalSeconds);
  return new Date(nowMs + Math.min(wanted, cap) * 1000);
}

/** Retry-After carried by a fetch error (fetcher puts it in details for 429/503), else null. */
export function retryAfterOf(error: unknown): number | null {
  const value = (error as {details?: {retryAfterSeconds?: unknown}} | null)?.details?.retryAfterSeconds;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

function seconds(value: number | null | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}
