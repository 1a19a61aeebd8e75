import {describeError, isWorkbenchError} from '../../../core/errors.js';
import {redact} from '../../../agent/credentials/redact.js';
import type {IngestorState, RateLimit} from '../types.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/**
 * When to fetch next after a good cycle: the interval, or the rate limit's reset when the network
 * says fewer than 5% of the window's requests (at least 1) are left.
 */
export function nextAfterSuccess(nowMs: number, intervalMin: number, rateLimit: RateLimit | null): number {
  const next = nowMs + intervalMin * MINUTE;
  if (!rateLimit?.resetAt || rateLimit.remaining === null) return next;
  const floor = Math.max(1, Math.ceil((rateLimit.limit ?? 0) * 0.05));
  return rateLimit.remaining < floor ? Math.max(next, Date.parse(rateLimit.resetAt)) : next;
}

export interface Failure {
  status: IngestorState;
  message: string;
  nextFetchAt: number;
}

/**
 * A failed cycle: rate limited (wait for Retry-After or the reset, at least the interval), else an
 * error with backoff (the interval doubled per failure in a row, at most a day). The message is
 * the error's own (networks name the field to fix, never its value), with every credential cut out.
 */
export function failure(error: unknown, nowMs: number, intervalMin: number, failuresBefore: number, secrets: string[]): Failure {
  const rateLimit = isWorkbenchError(error) ? (error.details as {rateLimit?: RateLimit} | undefined)?.rateLimit : undefined;
  const message = redact(describeError(error), secrets);
  if (rateLimit) {
    const waits = [intervalMin * MINUTE];
    if (rateLimit.retryAfterSeconds !== null) waits.push(rateLimit.retryAfterSeconds * 1000);
    if (rateLimit.resetAt) waits.push(Date.parse(rateLimit.resetAt) - nowMs);
    const nextFetchAt = nowMs + Math.min(DAY, Math.max(...waits.filter(Number.isFinite)));
    return {status: 'rate_limited', message: `${message}; next try at ${new Date(nextFetchAt).toISOString()}`, nextFetchAt};
  }
  const wait = Math.min(DAY, intervalMin * MINUTE * 2 ** Math.min(failuresBefore + 1, 10));
  return {status: 'error', message, nextFetchAt: nowMs + wait};
}
