import {describe, expect, it} from 'vitest';
import {WorkbenchError} from '../../../../source/core/errors.js';
import {failure, nextAfterSuccess} from '../../../../source/feeds/ingestors/cycle/schedule.js';
import {nextBoundary} from '../../../../source/feeds/ingestors/digest/boundary.js';

const NOW = Date.parse('2026-11-24T10:30:00Z');
const MINUTE = 60_000;

describe('when an ingestor fetches next', () => {
  it('after a good cycle: the interval, or the rate limit’s reset when under 5% of the window is left', () => {
    expect(nextAfterSuccess(NOW, 15, null)).toBe(NOW + 15 * MINUTE);
    const reset = new Date(NOW + 90 * MINUTE).toISOString();
    expect(nextAfterSuccess(NOW, 15, {limit: 300, remaining: 100, resetAt: reset, retryAfterSeconds: null})).toBe(NOW + 15 * MINUTE);
    expect(nextAfterSuccess(NOW, 15, {limit: 300, remaining: 14, resetAt: reset, retryAfterSeconds: null})).toBe(NOW + 90 * MINUTE);
    expect(nextAfterSuccess(NOW, 15, {limit: null, remaining: 0, resetAt: reset, retryAfterSeconds: null})).toBe(NOW + 90 * MINUTE);
  });

  it('rate limited: Retry-After or the reset, at least the interval, at most a day', () => {
    const limited = (retryAfterSeconds: number | null, resetAt: string | null) =>
      new WorkbenchError('feed_unreachable', 'rate limited by Mastodon at m.example (429): retry after …', {rateLimit: {limit: null, remaining: 0, resetAt, retryAfterSeconds}});
    expect(failure(limited(7200, null), NOW, 15, 0, []).nextFetchAt).toBe(NOW + 120 * MINUTE);
    expect(failure(limited(60, null), NOW, 15, 0, []).nextFetchAt).toBe(NOW + 15 * MINUTE);
    expect(failure(limited(10 * 86_400, null), NOW, 15, 0, []).nextFetchAt).toBe(NOW + 1440 * MINUTE);
    const answer = failure(limited(null, new Date(NOW + 45 * MINUTE).toISOString()), NOW, 15, 0, []);
    expect(answer).toMatchObject({status: 'rate_limited', nextFetchAt: NOW + 45 * MINUTE});
    expect(answer.message).toMatch(/next try at 2026-11-24T11:15:00.000Z/);
  });

  it('an error backs off, doubling per failure in a row, at most a day; credentials are cut out of the message', () => {
    const error = new WorkbenchError('feed_unreachable', 'm.example answered 500 for token sk-secret-123');
    expect(failure(error, NOW, 15, 0, []).nextFetchAt).toBe(NOW + 30 * MINUTE);
    expect(failure(error, NOW, 15, 2, []).nextFetchAt).toBe(NOW + 120 * MINUTE);
    expect(failure(error, NOW, 15, 30, []).nextFetchAt).toBe(NOW + 1440 * MINUTE);
    const said = failure(error, NOW, 15, 0, ['sk-secret-123']);
    expect(said).toMatchObject({status: 'error'});
    expect(said.message).not.toContain('sk-secret-123');
  });

  it('digests close at the next full hour, or the next midnight UTC', () => {
    expect(new Date(nextBoundary('hourly', NOW)!).toISOString()).toBe('2026-11-24T11:00:00.000Z');
    expect(new Date(nextBoundary('daily', NOW)!).toISOString()).toBe('2026-11-25T00:00:00.000Z');
    expect(nextBoundary('realtime', NOW)).toBeNull();
  });
});
