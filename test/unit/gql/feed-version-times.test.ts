import {describe, expect, it} from 'vitest';
import {FeedVersionTimes} from '../../../source/gql/feed-surface/version-times.js';

const at = (seconds: number) => Date.UTC(2026, 11, 2, 14, 0, seconds);

describe('the dates of a table feed’s versions (Last-Modified)', () => {
  it('a version keeps the second it was first served in; the next one of the view gets a later second', () => {
    const times = new FeedVersionTimes();
    expect(times.since('posts', '"a"', at(10) + 200)).toBe(at(10));
    expect(times.since('posts', '"a"', at(40))).toBe(at(10));
    expect(times.since('posts', '"b"', at(41) + 999)).toBe(at(41));
  });

  it('a version first served in the same second as the one before it has no date until a later second', () => {
    const times = new FeedVersionTimes();
    expect(times.since('posts', '"a"', at(10) + 200)).toBe(at(10));
    expect(times.since('posts', '"b"', at(10) + 700)).toBeUndefined();
    expect(times.since('posts', '"b"', at(10) + 900)).toBeUndefined();
    expect(times.since('posts', '"b"', at(11) + 100)).toBe(at(11));
  });

  it('views are apart: another reader or representation dates its own versions', () => {
    const times = new FeedVersionTimes();
    expect(times.since('posts t1', '"a"', at(10))).toBe(at(10));
    expect(times.since('posts t2', '"a"', at(20))).toBe(at(20));
    expect(times.since('posts t1', '"a"', at(30))).toBe(at(10));
  });

  it('keeps at most its capacity: a version dropped counts as new when it comes back', () => {
    const times = new FeedVersionTimes(2);
    times.since('v1', '"a"', at(1));
    times.since('v2', '"a"', at(2));
    times.since('v3', '"a"', at(3));
    expect(times.since('v1', '"a"', at(9))).toBe(at(9));
  });
});
