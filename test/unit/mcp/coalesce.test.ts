import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {Coalescer} from '../../../source/mcp/live/coalesce.js';

/** The bound behind `notifications/resources/updated` under bursts (issue 29 item 2), on a fake clock. */

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('Coalescer', () => {
  it('announces the first change at once and a burst once more at the end of the interval', () => {
    const told: string[] = [];
    const coalescer = new Coalescer<string>((key) => told.push(key), 250);
    coalescer.touch('a');
    expect(told).toEqual(['a']);
    for (let i = 0; i < 1000; i++) coalescer.touch('a');
    expect(told).toEqual(['a']);
    vi.advanceTimersByTime(250);
    expect(told).toEqual(['a', 'a']);
    // Nothing changed in that interval: nothing more is told.
    vi.advanceTimersByTime(1000);
    expect(told).toEqual(['a', 'a']);
  });

  it('tells a steady storm at most once per interval per key, the last change always', () => {
    const told: {key: string; at: number}[] = [];
    const coalescer = new Coalescer<string>((key) => told.push({key, at: Date.now()}), 250);
    const start = Date.now();
    // 1,000 changes a second for 4 seconds, on two keys.
    for (let ms = 0; ms < 4000; ms++) {
      coalescer.touch('inbox');
      if (ms % 2 === 0) coalescer.touch('output');
      vi.advanceTimersByTime(1);
    }
    vi.advanceTimersByTime(250);
    for (const key of ['inbox', 'output']) {
      const times = told.filter((one) => one.key === key).map((one) => one.at - start);
      expect(times.length).toBeLessThanOrEqual(4000 / 250 + 1);
      for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(250);
      // The trailing edge: told after the last change.
      expect(times.at(-1)).toBeGreaterThanOrEqual(3999);
    }
  });

  it('keeps nothing for a forgotten key and tells nothing after close', () => {
    const told: string[] = [];
    const coalescer = new Coalescer<string>((key) => told.push(key), 250);
    coalescer.touch('a');
    coalescer.touch('a');
    coalescer.forget('a');
    vi.advanceTimersByTime(250);
    expect(told).toEqual(['a']);
    coalescer.touch('b');
    coalescer.touch('b');
    coalescer.close();
    vi.advanceTimersByTime(250);
    coalescer.touch('c');
    expect(told).toEqual(['a', 'b']);
    expect(vi.getTimerCount()).toBe(0);
  });
});
