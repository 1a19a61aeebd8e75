import {afterEach, describe, expect, it, vi} from 'vitest';
import {WorkbenchError} from '../../../../source/core/errors.js';
import {createPoller, type DueFeed} from '../../../../source/feeds/poller/index.js';

/** Feeds in memory; a finished refresh moves the feed out of the due set, as the service does. */
function memoryFeeds(hosts: string[], perHost: number) {
  const feeds: DueFeed[] = [];
  for (let i = 0; i < hosts.length * perHost; i++) feeds.push({id: i + 1, url: `https://${hosts[i % hosts.length]}/feed/${i + 1}.xml`});
  const polledAt = new Map<number, number>();
  const calls: number[] = [];
  return {
    feeds,
    calls,
    polledAt,
    async dueFeeds(now: Date, limit: number) {
      calls.push(limit);
      return feeds.filter((feed) => (polledAt.get(feed.id) ?? -Infinity) < now.getTime()).slice(0, limit);
    },
    finish(id: number) {
      polledAt.set(id, Number.POSITIVE_INFINITY);
    },
  };
}

/** A refresh that records concurrency per host and per feed. */
function instrumented(store: ReturnType<typeof memoryFeeds>, pauseMs = 2) {
  const hostOf = new Map(store.feeds.map((feed) => [feed.id, new URL(feed.url).host]));
  const activeByHost = new Map<string, number>();
  const peakByHost = new Map<string, number>();
  const activeIds = new Set<number>();
  const refreshes = new Map<number, number>();
  let active = 0;
  let peak = 0;
  let overlaps = 0;
  return {
    stats: () => ({peak, peakByHost, refreshes, overlaps}),
    async refresh(id: number) {
      const host = hostOf.get(id)!;
      if (activeIds.has(id)) overlaps++;
      activeIds.add(id);
      active++;
      peak = Math.max(peak, active);
      activeByHost.set(host, (activeByHost.get(host) ?? 0) + 1);
      peakByHost.set(host, Math.max(peakByHost.get(host) ?? 0, activeByHost.get(host)!));
      try {
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
        store.finish(id);
        refreshes.set(id, (refreshes.get(id) ?? 0) + 1);
      } finally {
        active--;
        activeIds.delete(id);
        activeByHost.set(host, activeByHost.get(host)! - 1);
      }
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('createPoller', () => {
  it('polls every due feed once, in batches', async () => {
    const store = memoryFeeds(['a.example', 'b.example', 'c.example', 'd.example', 'e.example'], 50);
    const probe = instrumented(store, 1);
    const poller = createPoller({dueFeeds: store.dueFeeds, refresh: probe.refresh, batchSize: 20, workers: 8});
    expect(await poller.runOnce()).toEqual({polled: 250, failed: 0});
    expect(probe.stats().refreshes.size).toBe(250);
    expect([...probe.stats().refreshes.values()].every((count) => count === 1)).toBe(true);
    expect(store.calls.length).toBeGreaterThan(1);
    // Nothing is due any more.
    expect(await poller.runOnce()).toEqual({polled: 0, failed: 0});
  });

  it('never runs more than perHostLimit refreshes against one host', async () => {
    const store = memoryFeeds(['one.example', 'two.example', 'three.example'], 30);
    const probe = instrumented(store);
    const poller = createPoller({dueFeeds: store.dueFeeds, refresh: probe.refresh, workers: 16, perHostLimit: 2});
    await poller.runOnce();
    expect([...probe.stats().peakByHost.values()]).toEqual([2, 2, 2]);
    expect(probe.stats().peak).toBe(6);
  });

  it('never runs more than `workers` refreshes in all', async () => {
    const hosts = Array.from({length: 12}, (_, i) => `host${i}.example`);
    const store = memoryFeeds(hosts, 10);
    const probe = instrumented(store);
    const poller = createPoller({dueFeeds: store.dueFeeds, refresh: probe.refresh, workers: 5, perHostLimit: 3});
    await poller.runOnce();
    expect(probe.stats().peak).toBe(5);
    expect(probe.stats().refreshes.size).toBe(120);
  });

  it('does not let a busy host hold back the others', async () => {
    // 40 feeds of one host come first; the lone feed of another host still starts in the first wave.
    const feeds: DueFeed[] = [...Array.from({length: 40}, (_, i) => ({id: i + 1, url: `https://busy.example/${i}`})), {id: 99, url: 'https://quiet.example/feed'}];
    const started: number[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const done = new Set<number>();
    const poller = createPoller({
      dueFeeds: async (_now, limit) => feeds.filter((feed) => !done.has(feed.id)).slice(0, limit),
      refresh: async (id) => {
        started.push(id);
        await held;
        done.add(id);
      },
      perHostLimit: 2,
    });
    const round = poller.runOnce();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([1, 2, 99]);
    release();
    expect((await round).polled).toBe(41);
  });

  it('never refreshes one feed twice at once, even when rounds are asked for concurrently', async () => {
    const store = memoryFeeds(['a.example', 'b.example'], 40);
    const probe = instrumented(store);
    const poller = createPoller({dueFeeds: store.dueFeeds, refresh: probe.refresh, batchSize: 10, workers: 4});
    const [first, second] = await Promise.all([poller.runOnce(), poller.runOnce()]);
    expect(first).toBe(second);
    expect(probe.stats().overlaps).toBe(0);
    expect([...probe.stats().refreshes.values()].every((count) => count === 1)).toBe(true);
  });

  it('counts failures, reports them by feed and carries on', async () => {
    const store = memoryFeeds(['a.example'], 6);
    const errors: [number | null, string][] = [];
    const poller = createPoller({
      dueFeeds: store.dueFeeds,
      refresh: async (id) => {
        store.finish(id);
        if (id % 3 === 0) throw new WorkbenchError('feed_unreachable', `HTTP 500 from feed ${id}`);
      },
      onError: (id, error) => errors.push([id, (error as Error).message]),
    });
    expect(await poller.runOnce()).toEqual({polled: 6, failed: 2});
    expect(errors).toEqual([
      [3, 'HTTP 500 from feed 3'],
      [6, 'HTTP 500 from feed 6'],
    ]);
  });

  it('polls a failed feed once per round even when its next check did not move', async () => {
    const feeds: DueFeed[] = [{id: 1, url: 'https://a.example/1'}];
    let attempts = 0;
    const poller = createPoller({
      dueFeeds: async () => feeds,
      refresh: async () => {
        attempts++;
        throw new Error('boom');
      },
    });
    expect(await poller.runOnce()).toEqual({polled: 1, failed: 1});
    expect(attempts).toBe(1);
  });

  it('reports a failing dueFeeds with a null id and rejects the round', async () => {
    const errors: (number | null)[] = [];
    const poller = createPoller({
      dueFeeds: async () => {
        throw new Error('database is locked');
      },
      refresh: async () => undefined,
      onError: (id) => errors.push(id),
    });
    await expect(poller.runOnce()).rejects.toThrow('database is locked');
    expect(errors).toEqual([null]);
  });

  it('stop waits for refreshes in flight and starts no new one', async () => {
    const store = memoryFeeds(['a.example', 'b.example', 'c.example', 'd.example'], 10);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const started: number[] = [];
    let finished = 0;
    let firstWave!: () => void;
    const waveStarted = new Promise<void>((resolve) => (firstWave = resolve));
    const poller = createPoller({
      dueFeeds: store.dueFeeds,
      refresh: async (id) => {
        started.push(id);
        if (started.length === 4) firstWave();
        await held;
        store.finish(id);
        finished++;
      },
      workers: 4,
      intervalMs: 10,
    });
    poller.start();
    await waveStarted;
    // From here the test turns the clock: "stop waits" and "no round later" are a second of the
    // poller's own timers (a hundred of its intervals), not pauses a loaded machine may cut short.
    vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date']});
    let stopped = false;
    const stopping = poller.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(1000);
    expect(stopped).toBe(false);
    release();
    await vi.advanceTimersByTimeAsync(0);
    await stopping;
    expect(finished).toBe(4);
    expect(started).toHaveLength(4);
    // Stopped means stopped: no round starts later.
    await vi.advanceTimersByTimeAsync(1000);
    expect(started).toHaveLength(4);
  });

  it('runs rounds again and again once started', async () => {
    let rounds = 0;
    let enough!: () => void;
    const twice = new Promise<void>((resolve) => (enough = resolve));
    const poller = createPoller({
      dueFeeds: async () => {
        if (++rounds === 3) enough();
        return [];
      },
      refresh: async () => undefined,
      intervalMs: 1,
    });
    poller.start();
    await twice;
    await poller.stop();
    expect(rounds).toBeGreaterThanOrEqual(3);
  });

  it('refuses nonsense limits', () => {
    const base = {dueFeeds: async () => [], refresh: async () => undefined};
    expect(() => createPoller({...base, workers: 0})).toThrow(/workers must be a positive integer/);
    expect(() => createPoller({...base, perHostLimit: 1.5})).toThrow(WorkbenchError);
    expect(() => createPoller({...base, intervalMs: -1})).toThrow(WorkbenchError);
  });
});
