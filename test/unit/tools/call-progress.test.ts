import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {throttleProgress, whileWaiting, type ProgressUpdate} from '../../../source/tools/call-progress.js';

// A clock the test moves: the throttle's decisions follow it, with no real waiting.
let now = 0;
let sent: ProgressUpdate[];
const make = () => throttleProgress((update) => sent.push(update), {intervalMs: 250, now: () => now});
const advance = (ms: number) => {
  now += ms;
  vi.advanceTimersByTime(ms);
};

beforeEach(() => {
  vi.useFakeTimers();
  now = 1_000;
  sent = [];
});
afterEach(() => vi.useRealTimers());

describe('throttleProgress', () => {
  it('sends the first update at once and the newest of a burst after the interval', () => {
    const progress = make();
    progress.progress(1, undefined, 'one');
    expect(sent).toEqual([{progress: 1, message: 'one'}]);
    advance(50);
    progress.progress(2, undefined, 'two');
    advance(50);
    progress.progress(3, undefined, 'three');
    expect(sent).toHaveLength(1);
    advance(149);
    expect(sent).toHaveLength(1);
    advance(1);
    expect(sent).toEqual([
      {progress: 1, message: 'one'},
      {progress: 3, message: 'three'},
    ]);
  });

  it('never sends two updates closer than the interval, however many come', () => {
    const at: number[] = [];
    const timed = throttleProgress(
      (update) => {
        at.push(now);
        sent.push(update);
      },
      {intervalMs: 250, now: () => now},
    );
    for (let step = 1; step <= 100; step += 1) {
      timed.progress(step);
      advance(10);
    }
    advance(300);
    for (let index = 1; index < at.length; index += 1) expect(at[index]! - at[index - 1]!).toBeGreaterThanOrEqual(250);
    expect(sent.at(-1)).toEqual({progress: 100});
  });

  it('sends the last update (progress reaching total) at once, throttled or not', () => {
    const progress = make();
    progress.progress(1, 4, 'launch');
    advance(10);
    progress.progress(2, 4, 'load');
    advance(10);
    progress.progress(4, 4, 'done');
    expect(sent).toEqual([
      {progress: 1, total: 4, message: 'launch'},
      {progress: 4, total: 4, message: 'done'},
    ]);
    // The pending update it replaced is not sent afterwards: progress stays increasing.
    advance(1000);
    expect(sent).toHaveLength(2);
  });

  it('drops updates that do not go forward, and anything that is not a finite number', () => {
    const progress = make();
    progress.progress(5);
    advance(300);
    progress.progress(5);
    progress.progress(3);
    progress.progress(Number.NaN);
    progress.progress(Number.POSITIVE_INFINITY);
    advance(1000);
    expect(sent).toEqual([{progress: 5}]);
  });

  it('sends nothing after close, not even a pending update', () => {
    const progress = make();
    progress.progress(1);
    advance(10);
    progress.progress(2);
    progress.close();
    advance(1000);
    progress.progress(3, 3);
    expect(sent).toEqual([{progress: 1}]);
  });
});

describe('whileWaiting', () => {
  const callOf = (controller: AbortController, updates: ProgressUpdate[]) => ({
    cwd: '/',
    noDaemon: true,
    daemon: () => Promise.reject(new Error('no daemon in this test')),
    call: {signal: controller.signal, progress: (progress: number, total?: number, message?: string) => void updates.push({progress, total, message})},
  });

  it('reports at once and every second while the work runs, then answers its value', async () => {
    const controller = new AbortController();
    const updates: ProgressUpdate[] = [];
    let finish!: (value: string) => void;
    const waiting = whileWaiting(callOf(controller, updates), new Promise<string>((resolve) => (finish = resolve)), (seconds) => `waiting ${seconds}s`);
    expect(updates.map((update) => update.message)).toEqual(['waiting 0s']);
    advance(2000);
    expect(updates.map((update) => update.message)).toEqual(['waiting 0s', 'waiting 1s', 'waiting 2s']);
    finish('done');
    await expect(waiting).resolves.toBe('done');
    advance(5000);
    expect(updates).toHaveLength(3);
  });

  it('stops waiting when cancelled, and undoes what the work brings afterwards', async () => {
    const controller = new AbortController();
    let finish!: (value: string) => void;
    const undone: string[] = [];
    const waiting = whileWaiting(
      callOf(controller, []),
      new Promise<string>((resolve) => (finish = resolve)),
      () => 'starting',
      (late) => void undone.push(late),
    );
    controller.abort();
    await expect(waiting).rejects.toThrow('the call was cancelled');
    expect(undone).toEqual([]);
    finish('proxy app');
    await vi.waitFor(() => expect(undone).toEqual(['proxy app']));
  });

  it('is the work itself when no face gave a call', async () => {
    await expect(whileWaiting({cwd: '/', noDaemon: true, daemon: () => Promise.reject(new Error('none'))}, Promise.resolve(5), () => 'x')).resolves.toBe(5);
  });
});
