import {describe, expect, it} from 'vitest';
import {singleFlight} from '../../../../source/feeds/poller/index.js';

function gate<T>() {
  let open!: (value: T) => void;
  let fail!: (error: unknown) => void;
  const promise = new Promise<T>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return {promise, open, fail};
}

describe('singleFlight', () => {
  it('runs concurrent calls with one key once and answers all of them', async () => {
    const flights = singleFlight<number, {newArticles: number}>();
    const answer = gate<{newArticles: number}>();
    let runs = 0;
    const work = () => {
      runs++;
      return answer.promise;
    };
    const first = flights.run(7, work);
    const second = flights.run(7, work);
    expect(flights.has(7)).toBe(true);
    answer.open({newArticles: 3});
    expect(await first).toEqual({newArticles: 3});
    expect(await second).toBe(await first);
    expect(runs).toBe(1);
    expect(flights.has(7)).toBe(false);
  });

  it('starts afresh once the flight has landed', async () => {
    const flights = singleFlight<string, number>();
    let runs = 0;
    await flights.run('a', async () => ++runs);
    expect(await flights.run('a', async () => ++runs)).toBe(2);
  });

  it('keeps keys apart', async () => {
    const flights = singleFlight<number, number>();
    const results = await Promise.all([flights.run(1, async () => 1), flights.run(2, async () => 2)]);
    expect(results).toEqual([1, 2]);
  });

  it('shares a failure with every caller, then forgets it', async () => {
    const flights = singleFlight<number, number>();
    const answer = gate<number>();
    const first = flights.run(1, () => answer.promise);
    const second = flights.run(1, () => Promise.resolve(99));
    answer.fail(new Error('HTTP 500'));
    await expect(first).rejects.toThrow('HTTP 500');
    await expect(second).rejects.toThrow('HTTP 500');
    expect(flights.size).toBe(0);
    expect(await flights.run(1, async () => 5)).toBe(5);
  });

  it('turns a synchronous throw into a rejection', async () => {
    const flights = singleFlight<number, number>();
    await expect(
      flights.run(1, () => {
        throw new Error('bad');
      }),
    ).rejects.toThrow('bad');
  });
});
