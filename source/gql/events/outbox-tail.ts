import type {OutboxEvent, OutboxStore} from './outbox-store.js';

export interface OutboxTailOptions {
  /** How often the outbox is read while someone listens and nothing woke the tail (default 25 ms). */
  pollMs?: number;
  /**
   * How long a missing id is waited for before the tail moves past it (default 500 ms). Ids are
   * handed out before commit: a later id can commit first, and a rolled-back change leaves its id
   * unused for good. Waiting keeps the stream in commit-safe id order without stalling forever.
   */
  gapWaitMs?: number;
  /** Where read failures are said (default: nowhere). */
  log?: (line: string) => void;
}

type Listener = (events: OutboxEvent[]) => void;

/**
 * The outbox read as a stream, for GraphQL subscriptions: every row from the moment the first
 * listener came, in id order, whatever its delivery state (the dispatcher's sinks and the
 * subscribers are independent). Woken by the service's own commits, polling for the others'
 * (triggers, other processes). It reads only while someone listens.
 */
export class OutboxTail {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly pollMs: number;
  private readonly gapWaitMs: number;
  private last: number | undefined;
  private gap: {id: number; since: number} | undefined;
  private running: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  private closed = false;

  constructor(
    private readonly store: OutboxStore,
    private readonly options: OutboxTailOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 25;
    this.gapWaitMs = options.gapWaitMs ?? 500;
  }

  /** Hears the events of one aggregate (`schema.table`) from now on; returns the unsubscribe. */
  async listen(aggregate: string, listener: Listener): Promise<() => void> {
    if (this.closed) throw new Error('the service is closing');
    if (this.last === undefined) this.last = await this.store.lastId();
    const set = this.listeners.get(aggregate) ?? new Set<Listener>();
    set.add(listener);
    this.listeners.set(aggregate, set);
    this.running ??= this.run();
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(aggregate);
    };
  }

  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  private get listening(): boolean {
    return this.listeners.size > 0 && !this.closed;
  }

  /** One read: the rows after the last one handed out, up to the first gap not yet waited out. */
  async readOnce(now = Date.now()): Promise<number> {
    const rows = await this.store.after(this.last ?? 0, 1000);
    const ready: OutboxEvent[] = [];
    let expected = (this.last ?? 0) + 1;
    for (const row of rows) {
      if (row.id !== expected) {
        if (this.gap?.id !== expected) this.gap = {id: expected, since: now};
        if (now - this.gap.since < this.gapWaitMs) break;
      }
      ready.push(row);
      expected = row.id + 1;
      this.gap = undefined;
    }
    if (ready.length === 0) return 0;
    this.last = expected - 1;
    const byAggregate = new Map<string, OutboxEvent[]>();
    for (const event of ready) byAggregate.set(event.aggregate, [...(byAggregate.get(event.aggregate) ?? []), event]);
    for (const [aggregate, events] of byAggregate) for (const listener of this.listeners.get(aggregate) ?? []) listener(events);
    return ready.length;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.listening) {
      this.woken = false;
      try {
        await this.readOnce();
        failures = 0;
      } catch (error) {
        failures += 1;
        if (failures === 1 || failures % 40 === 0) this.options.log?.(`subscriptions cannot read the outbox: ${(error as Error).message.split('\n')[0]}`);
      }
      if (!this.listening) break;
      if (this.woken) continue;
      // A gap being waited out is looked at again soon; otherwise the poll interval (longer while the database is away).
      const pause = this.gap ? Math.min(this.pollMs, 10) : failures > 0 ? Math.min(2000, this.pollMs * 2 ** Math.min(failures, 6)) : this.pollMs;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pause);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = undefined;
    }
    this.running = undefined;
    // Someone may have listened while this loop was ending.
    if (this.listening) this.running = this.run();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    this.wakeUp?.();
    await this.running;
  }
}
