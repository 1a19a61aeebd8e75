import {describe, expect, it} from 'vitest';
import {maxAgeSeconds, retryAfterSeconds} from '../../../../source/feeds/fetcher/index.js';

const NOW = Date.UTC(2025, 0, 6, 12, 0, 0);
const headers = (entries: Record<string, string>) => new Headers(entries);

describe('maxAgeSeconds', () => {
  it('reads max-age among other directives, quoted or not', () => {
    expect(maxAgeSeconds(headers({'cache-control': 'public, max-age=600'}), NOW)).toBe(600);
    expect(maxAgeSeconds(headers({'cache-control': 'max-age="90", must-revalidate'}), NOW)).toBe(90);
    expect(maxAgeSeconds(headers({'cache-control': 'S-MAXAGE=5, Max-Age=30'}), NOW)).toBe(30);
  });

  it('does not mistake s-maxage for max-age', () => {
    expect(maxAgeSeconds(headers({'cache-control': 's-maxage=300'}), NOW)).toBeNull();
  });

  it('prefers max-age over Expires', () => {
    expect(maxAgeSeconds(headers({'cache-control': 'max-age=60', expires: new Date(NOW + 3600_000).toUTCString()}), NOW)).toBe(60);
  });

  it('measures Expires against the response Date, not the local clock', () => {
    const date = new Date(NOW - 86_400_000).toUTCString();
    const expires = new Date(NOW - 86_400_000 + 1800_000).toUTCString();
    expect(maxAgeSeconds(headers({date, expires}), NOW)).toBe(1800);
  });

  it('treats an unreadable or past Expires as already expired', () => {
    expect(maxAgeSeconds(headers({expires: '0'}), NOW)).toBe(0);
    expect(maxAgeSeconds(headers({expires: new Date(NOW - 60_000).toUTCString()}), NOW)).toBe(0);
  });

  it('is null without caching headers', () => {
    expect(maxAgeSeconds(headers({'cache-control': 'no-cache'}), NOW)).toBeNull();
    expect(maxAgeSeconds(headers({}), NOW)).toBeNull();
  });
});

describe('retryAfterSeconds', () => {
  it('reads delta-seconds and HTTP dates', () => {
    expect(retryAfterSeconds(headers({'retry-after': '120'}), NOW)).toBe(120);
    expect(retryAfterSeconds(headers({'retry-after': new Date(NOW + 300_000).toUTCString()}), NOW)).toBe(300);
  });

  it('ignores what it cannot read', () => {
    expect(retryAfterSeconds(headers({'retry-after': 'soon'}), NOW)).toBeNull();
    expect(retryAfterSeconds(headers({'retry-after': '-5'}), NOW)).toBeNull();
    expect(retryAfterSeconds(headers({}), NOW)).toBeNull();
  });
});
