import {describe, expect, it} from 'vitest';
import {MAX_CHECK_DELAY_SECONDS, nextCheckAt, retryAfterOf} from '../../../../source/feeds/poller/index.js';
import {WorkbenchError} from '../../../../source/core/errors.js';

const now = new Date('2025-01-06T12:00:00Z');
const minutesLater = (date: Date) => (date.getTime() - now.getTime()) / 60_000;

describe('nextCheckAt', () => {
  it('waits the interval when nothing else is said', () => {
    expect(minutesLater(nextCheckAt({now, intervalMinutes: 60}))).toBe(60);
  });

  it('takes the longest of interval, <ttl>, max-age and Retry-After', () => {
    expect(minutesLater(nextCheckAt({now, intervalMinutes: 60, ttlMinutes: 180}))).toBe(180);
    expect(minutesLater(nextCheckAt({now, intervalMinutes: 60, maxAgeSeconds: 7200}))).toBe(120);
    expect(minutesLater(nextCheckAt({now, intervalMinutes: 60, retryAfterSeconds: 5 * 3600}))).toBe(300);
    expect(minutesLater(nextCheckAt({now, intervalMinutes: 60, ttlMinutes: 10, maxAgeSeconds: 60, retryAfterSeconds: 30}))).toBe(60);
  });

  it('doubles the interval for each consecutive failure', () => {
    const schedule = [0, 1, 2, 3, 4].map((failures) => minutesLater(nextCheckAt({now, intervalMinutes: 30, consecutiveFailures: failures})));
    expect(schedule).toEqual([30, 60, 120, 240, 480]);
  });

  it('caps the wait at 24 h however long the streak or the header', () => {
    expect(minutesLater(nextCheckAt({now, intervalMinutes: 30, consecutiveFailures: 40}))).toBe(MAX_CHECK_DELAY_SECONDS / 60);
    expect(minutesLater(nextCheckAt({now, intervalMinutes: 30, maxAgeSeconds: 365 * 86_400}))).toBe(24 * 60);
  });

  it('keeps an interval longer than the cap', () => {
    expect(minutesLater(nextCheckAt({now, intervalMinutes: 7 * 24 * 60, consecutiveFailures: 3}))).toBe(7 * 24 * 60);
  });

  it('ignores negative or missing hints and refuses a bad interval', () => {
    expect(minutesLater(nextCheckAt({now, intervalMinutes: 15, ttlMinutes: -5, maxAgeSeconds: null, retryAfterSeconds: Number.NaN}))).toBe(15);
    expect(() => nextCheckAt({now, intervalMinutes: 0})).toThrow(WorkbenchError);
    expect(() => nextCheckAt({now: new Date('nope'), intervalMinutes: 10})).toThrow(/valid `now`/);
  });
});

describe('retryAfterOf', () => {
  it('reads the Retry-After the fetcher puts in a 429 error', () => {
    expect(retryAfterOf(new WorkbenchError('feed_unreachable', 'HTTP 429', {status: 429, retryAfterSeconds: 120}))).toBe(120);
    expect(retryAfterOf(new WorkbenchError('feed_unreachable', 'HTTP 500', {status: 500}))).toBeNull();
    expect(retryAfterOf(new Error('x'))).toBeNull();
    expect(retryAfterOf(null)).toBeNull();
  });
});
