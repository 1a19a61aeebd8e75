import {WorkbenchError} from '../../core/errors.js';
import {hostKey} from './host-key.js';
import {KeyedLimiter} from './keyed-limiter.js';

export interface DueFeed {
  id: number;
  url: string;
}

export interface PollerOptions {
  /**
   * Feeds due at `now`, most overdue first, at most `limit`. A finished refresh must move its
   * feed's next check past `now` (the service does), or the round would ask for it again.
   */
  dueFeeds(now: Date, limit: number): Promise<DueFeed[]>;
  /** Polls one feed; errors are counted and handed to onError, never thrown out of the poller. */
  refresh(id: number): Promise<unknown>;
  /** Refreshes at once, all hosts together (default 16, Miniflux's worker count). */
  workers?: number;
  /** Refreshes at once against one host:port (default 2). */
  perHostLimit?: number;
  /** Pause between the end of one round and the start of the next (default 60 s). */
  intervalMs?: number;
  /** Feeds asked of dueFeeds at a time (default 100). */
  batchSize?: number;
  /** A refresh failed (id), or listing due feeds failed (id null). */
  onError?(id: number | null, error: unknown): void;
}

export interface PollRound {
  /** Refreshes that ran to an end in this round, failures included. */
  polled: number;
  /** Of those, the ones that threw. */
  failed: number;
}

export interface Poller {
  /** Runs a round now, then one every intervalMs after the previous ended. */
  start(): void;
  /** No new refresh starts; resolves once the running ones have finished. */
  stop(): Promise<void>;
  /** One round: every feed due now, in batches; concurrent calls share the round. */
  runOnce(): Promise<PollRound>;
}

/**
 * The background poller (Miniflux's scheduler and worker pool in one): each round lists the feeds
 * due, refreshes them with a global and a per-host concurrency limit, and asks for more while
 * the queue runs low, until no feed due at the round's start is left. Rounds never overlap, and
 * a round refreshes each feed at most once, so one feed is never refreshed twice at once.
 */
export function createPoller(options: PollerOptions): Poller {
  const workers = positiveInteger(options.workers, 16, 'workers');
  const perHostLimit = positiveInteger(options.perHostLimit, 2, 'perHostLimit');
  const batchSize = positiveInteger(options.batchSize, 100, 'batchSize');
  const intervalMs = options.intervalMs ?? 60_000;
  if (!(Number.isFinite(intervalMs) && intervalMs >= 0)) throw new WorkbenchError('invalid_argument', `intervalMs must be a number of milliseconds ≥ 0, not ${intervalMs}`);

  const limiter = new KeyedLimiter(workers, perHostLimit);
  let round: Promise<PollRound> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let started = false;
  let stopping = false;

  const report = (id: number | null, error: unknown) => {
    try {
      options.onError?.(id, error);
    } catch {
      // A failing error handler must not stop the poller.
    }
  };

  async function drain(): Promise<PollRound> {
    const now = new Date();
    const seen = new Set<number>();
    const tally: PollRound = {polled: 0, failed: 0};
    try {
      while (!stopping) {
        // Feeds still running (or failed without moving) come back from dueFeeds: ask for room beyond them.
        const limit = batchSize + limiter.active + limiter.pending + tally.failed;
        const due = await options.dueFeeds(now, limit);
        let added = 0;
        for (const feed of due) {
          if (seen.has(feed.id)) continue;
          seen.add(feed.id);
          added++;
          limiter.push(hostKey(feed.url), async () => {
            if (stopping) return;
            try {
              await options.refresh(feed.id);
            } catch (error) {
              tally.failed++;
              report(feed.id, error);
            }
            tally.polled++;
          });
        }
        // A short answer means nothing else is due; an answer of known feeds means the same.
        if (added === 0 || due.length < limit) break;
        while (!stopping && limiter.pending >= Math.ceil(batchSize / 2)) await limiter.progress();
      }
    } catch (error) {
      report(null, error);
      await limiter.idle();
      throw error;
    }
    await limiter.idle();
    return tally;
  }

  function runOnce(): Promise<PollRound> {
    round ??= drain().finally(() => {
      round = null;
    });
    return round;
  }

  function schedule(delayMs: number): void {
    timer = setTimeout(() => {
      timer = null;
      runOnce()
        .catch(() => undefined)
        .finally(() => {
          if (started && !stopping) schedule(intervalMs);
        });
    }, delayMs);
  }

  return {
    start() {
      if (started) return;
      started = true;
      stopping = false;
      schedule(0);
    },
    async stop() {
      started = false;
      stopping = true;
      if (timer) clearTimeout(timer);
      timer = null;
      limiter.clear();
      await round?.catch(() => undefined);
      await limiter.idle();
      stopping = false;
    },
    runOnce,
  };
}

function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(Number.isInteger(value) && value > 0)) throw new WorkbenchError('invalid_argument', `${name} must be a positive integer, not ${value}`);
  return value;
}
