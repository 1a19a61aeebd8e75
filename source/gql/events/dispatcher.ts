import type {GqlModel} from '../types.js';
import {deliverable, redacted} from './deliverable.js';
import {cloudEvent} from './envelope.js';
import {lanesOf, orderKey, Slots} from './key-lanes.js';
import type {OutboxEvent, OutboxStore} from './outbox-store.js';
import type {EventSink, OutgoingEvent} from './sinks/sink.js';

export interface DispatcherOptions {
  /** Failed deliveries before an event is a dead letter (default 10). */
  maxAttempts?: number;
  /** The first retry's delay; each next one doubles, up to `maxDelayMs` (defaults 1 s and 5 min). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** How long a claim keeps an aggregate from other dispatchers (default 60 s): a dispatcher that dies gives it back after this. */
  leaseMs?: number;
  /** Aggregates and rows taken per claim (defaults 32 and 1000). */
  maxAggregates?: number;
  maxRows?: number;
  /**
   * Rows delivered side by side to a per-row sink (the webhook), across every aggregate of a
   * round (default 16); each row's own events stay strictly in id order.
   */
  concurrency?: number;
  /** How often the outbox is looked at when nothing woke the dispatcher (default 50 ms). */
  pollMs?: number;
  /** How long a missing id (a change not yet committed, or rolled back) holds back the ids after it (default 500 ms). */
  gapWaitMs?: number;
  /** Where delivery failures and dead letters are said (default: nowhere). */
  log?: (line: string) => void;
  now?: () => Date;
}

export interface RoundOutcome {
  /** Rows taken by sinks, and rows the subscription filtered out (marked done, never sent). */
  delivered: number;
  filtered: number;
  failed: number;
  /** Whether the claim came back full: there may be more waiting. */
  more: boolean;
}

/**
 * Delivers the outbox: claims whole aggregates (tables, outbox-store.ts), sends their events to
 * every sink in order per row — `(table, primary key)`, key-lanes.ts: a per-row sink (the
 * webhook) gets each row's events in id order, different rows side by side (`concurrency`); a
 * batch sink (JetStream) gets the table's events in id order as one batch — marks what was
 * taken, and schedules a retry with exponential backoff for the first event of a row a sink
 * refused: that row's later events wait behind it, so order per row holds. After `maxAttempts`
 * failures the event is a dead letter (kept, shown by `gql events list --state dead`, sent again
 * by `retry <id>`) and the row moves on. Aggregates are delivered side by side. Several
 * dispatchers may run against one database.
 */
export class Dispatcher {
  private readonly maxAttempts: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly leaseMs: number;
  private readonly maxAggregates: number;
  private readonly maxRows: number;
  private readonly pollMs: number;
  private readonly slots: Slots;
  private readonly now: () => Date;
  private running = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private woken = false;

  constructor(
    private readonly store: OutboxStore,
    private readonly model: GqlModel,
    private readonly sinks: EventSink[],
    private readonly options: DispatcherOptions = {},
  ) {
    this.maxAttempts = options.maxAttempts ?? 10;
    this.baseDelayMs = options.baseDelayMs ?? 1000;
    this.maxDelayMs = options.maxDelayMs ?? 300_000;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.maxAggregates = options.maxAggregates ?? 32;
    this.maxRows = options.maxRows ?? 1000;
    this.pollMs = options.pollMs ?? 50;
    this.slots = new Slots(options.concurrency ?? 16);
    this.now = options.now ?? (() => new Date());
  }

  /** The delay before attempt `attempts + 1`: base × 2^(attempts − 1), capped, with ±20 % jitter so retries of many events spread. */
  backoff(attempts: number): number {
    const delay = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** Math.max(0, attempts - 1));
    return Math.round(delay * (0.8 + Math.random() * 0.4));
  }

  /** One claim delivered. */
  async runOnce(): Promise<RoundOutcome> {
    const now = this.now();
    const upTo = await this.store.settledUpTo(now.getTime(), this.options.gapWaitMs ?? 500);
    const claim = await this.store.claim(now, this.leaseMs, this.maxAggregates, this.maxRows, upTo);
    const outcome: RoundOutcome = {delivered: 0, filtered: 0, failed: 0, more: false};
    let rows = 0;
    const done: number[] = [];
    await Promise.all(
      [...claim.aggregates.values()].map(async (events) => {
        rows += events.length;
        await this.deliverAggregate(events, done, outcome);
      }),
    );
    if (done.length > 0) await this.store.markDispatched(done, this.now());
    outcome.more = claim.aggregates.size >= this.maxAggregates || rows >= this.maxRows;
    return outcome;
  }

  private async deliverAggregate(events: OutboxEvent[], done: number[], outcome: RoundOutcome): Promise<void> {
    const subscription = this.model.events?.subscription;
    // Events the subscription filters out are done without being sent; the rest go out in order.
    const outgoing: OutgoingEvent[] = [];
    for (const event of events) {
      if (!deliverable(subscription, event)) {
        done.push(event.id);
        outcome.filtered += 1;
        continue;
      }
      outgoing.push({event, body: JSON.stringify(cloudEvent(event, redacted(this.model, event.payload)))});
    }
    if (outgoing.length === 0) return;
    // Each sink in turn gets what every sink before it took; a row that failed stops there.
    const failures = new Map<string, {event: OutboxEvent; error: string}>();
    let taken = outgoing;
    for (const sink of this.sinks) {
      taken = sink.perRow ? await this.deliverRows(sink, taken, failures) : await this.deliverBatch(sink, taken, failures);
      if (taken.length === 0) break;
    }
    for (const {event} of taken) done.push(event.id);
    outcome.delivered += taken.length;
    for (const {event: failed, error} of failures.values()) {
      outcome.failed += 1;
      const attempts = failed.attempts + 1;
      const dead = attempts >= this.maxAttempts;
      const next = dead ? null : new Date(this.now().getTime() + this.backoff(attempts));
      await this.store.markFailed(failed, error, next, dead);
      this.options.log?.(
        dead
          ? `event ${failed.id} (${failed.aggregate} ${failed.op}) is a dead letter after ${attempts} attempts: ${error}`
          : `event ${failed.id} (${failed.aggregate} ${failed.op}) not delivered (attempt ${attempts}), retried at ${next?.toISOString()}: ${error}`,
      );
    }
  }

  /** A batch sink: the events in id order in one call; the first it refused fails, the rest wait for the next round. */
  private async deliverBatch(sink: EventSink, events: OutgoingEvent[], failures: Map<string, {event: OutboxEvent; error: string}>): Promise<OutgoingEvent[]> {
    const result = await sink.deliver(events);
    if (result.delivered >= events.length) return events;
    const failed = events[result.delivered]?.event;
    if (failed) failures.set(orderKey(failed), {event: failed, error: `${sink.name}: ${result.error ?? 'not delivered'}`});
    return events.slice(0, result.delivered);
  }

  /** A per-row sink: one call per row's events, rows side by side within the dispatcher's slots; what was taken, in id order. */
  private async deliverRows(sink: EventSink, events: OutgoingEvent[], failures: Map<string, {event: OutboxEvent; error: string}>): Promise<OutgoingEvent[]> {
    const took = new Set<OutgoingEvent>();
    await Promise.all(
      lanesOf(events).map((lane) =>
        this.slots.run(async () => {
          const result = await sink.deliver(lane);
          for (const item of lane.slice(0, result.delivered)) took.add(item);
          const failed = lane[result.delivered]?.event;
          if (failed && result.delivered < lane.length) failures.set(orderKey(failed), {event: failed, error: `${sink.name}: ${result.error ?? 'not delivered'}`});
        }),
      ),
    );
    return events.filter((item) => took.has(item));
  }

  /** Runs until stopped: a round whenever woken or every `pollMs`, at once again while claims come back full. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** A change was committed: look now instead of at the next poll. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      let more = false;
      try {
        this.woken = false;
        more = (await this.runOnce()).more;
        failures = 0;
      } catch (error) {
        // The database away: say so once in a while, look again with growing pauses.
        failures += 1;
        if (failures === 1 || failures % 20 === 0) this.options.log?.(`the outbox cannot be read: ${(error as Error).message.split('\n')[0]}`);
      }
      if (!this.running) break;
      if (more || this.woken) continue;
      const pause = failures > 0 ? Math.min(5000, this.pollMs * 2 ** Math.min(failures, 6)) : this.pollMs;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pause);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = undefined;
    }
  }

  /** Stops after the round in flight (its deliveries are marked), then closes the sinks. */
  async stop(): Promise<void> {
    this.running = false;
    this.wakeUp?.();
    await this.loop;
    await Promise.all(this.sinks.map((sink) => sink.close()));
  }
}
