import type {Knex} from 'knex';
import {WorkbenchError} from '../../core/errors.js';
import type {Dialect} from '../dialect/dialect.js';
import {dialectOf} from '../dialect/dialect-of.js';
import type {EventOp, ModelEvents, Provider} from '../types.js';
import {outboxTime} from './capture.js';
import {OWN_OUTBOX_STATEMENTS} from './outbox-statements.js';
import type {EventPayload} from './payload.js';

/** One outbox row as read back. */
export interface OutboxEvent {
  id: number;
  aggregate: string;
  aggregateId: string;
  op: EventOp;
  payload: EventPayload;
  tenant: string | null;
  createdAt: string;
  dispatchedAt: string | null;
  attempts: number;
  dead: boolean;
  nextAttemptAt: string | null;
  lastError: string | null;
}

export type EventState = 'pending' | 'dispatched' | 'dead' | 'all';

type RawRow = Record<string, unknown>;

function timeText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

function parsePayload(value: unknown): EventPayload {
  if (typeof value === 'string') return JSON.parse(value) as EventPayload;
  if (Buffer.isBuffer(value)) return JSON.parse(value.toString('utf8')) as EventPayload;
  return value as EventPayload;
}

export function eventOf(row: RawRow): OutboxEvent {
  return {
    id: Number(row.id),
    aggregate: String(row.aggregate),
    aggregateId: String(row.aggregate_id),
    op: String(row.op) as EventOp,
    payload: parsePayload(row.payload),
    tenant: row.tenant === null || row.tenant === undefined ? null : String(row.tenant),
    createdAt: timeText(row.created_at) ?? '',
    dispatchedAt: timeText(row.dispatched_at),
    attempts: Number(row.attempts ?? 0),
    dead: row.dead === true || Number(row.dead) === 1,
    nextAttemptAt: timeText(row.next_attempt_at),
    lastError: row.last_error === null || row.last_error === undefined ? null : String(row.last_error),
  };
}

/** What a claim hands one dispatcher: whole aggregates (their pending rows in id order), its own until it marks them. */
export interface Claim {
  aggregates: Map<string, OutboxEvent[]>;
}

/** The outbox read and written through knex: the dispatcher's claims and marks, and what `gql events` lists, replays and retries. */
export class OutboxStore {
  readonly ref: string;
  private readonly dialect: Dialect;
  private readonly own: (typeof OWN_OUTBOX_STATEMENTS)[Provider];

  constructor(
    readonly db: Knex,
    readonly provider: Provider,
    outbox: ModelEvents['outbox'],
  ) {
    this.dialect = dialectOf(provider);
    this.own = OWN_OUTBOX_STATEMENTS[provider];
    this.ref = this.dialect.qualifiedName(outbox.schema, outbox.name);
  }

  private time(at: Date): unknown {
    return outboxTime(this.provider, at);
  }

  private pending(qb: Knex.QueryBuilder): Knex.QueryBuilder {
    return qb.whereNull('dispatched_at').andWhere('dead', this.dialect.storedBoolean(false));
  }

  /** Events not yet delivered (dead ones excluded): the backlog `/metrics` shows. */
  async pendingCount(): Promise<number> {
    const row = (await this.pending(this.db(this.ref).count({n: '*'})).first()) as {n?: number | string} | undefined;
    return Number(row?.n ?? 0);
  }

  /**
   * Claims up to `maxAggregates` aggregates whose head (the lowest pending row) is due, and up to
   * `maxRows` of their pending rows, in one short transaction: the heads are locked with
   * `FOR UPDATE SKIP LOCKED` where the database has it (PostgreSQL, MariaDB 10.6+) — two
   * dispatchers never take the same aggregate — and leased (`next_attempt_at` = now + lease) so
   * no one else takes the aggregate while it is being delivered. A dispatcher that dies holding a
   * lease gives the aggregate back when the lease runs out: at least once, in order. SQLite has
   * one writer, whose transaction excludes the other dispatchers. A database with its own claim
   * (PostgreSQL's one statement, outbox-postgres.ts) runs that instead.
   */
  async claim(now: Date, leaseMs: number, maxAggregates: number, maxRows: number, upTo = Number.MAX_SAFE_INTEGER): Promise<Claim> {
    if (this.own) return this.ownClaim(this.own, now, leaseMs, maxAggregates, maxRows, upTo);
    return this.db.transaction(async (trx) => {
      const heads = this.pending(trx(this.ref).select('aggregate').min({head: 'id'}))
        .where('id', '<=', upTo)
        .groupBy('aggregate');
      const due = this.pending(trx(this.ref).select('id', 'aggregate'))
        .whereIn('id', trx.select('head').from(heads.as('wb_heads')))
        .andWhere((qb) => qb.whereNull('next_attempt_at').orWhere('next_attempt_at', '<=', this.time(now) as Knex.Value))
        .orderBy('id')
        .limit(maxAggregates);
      const claimed = (await this.dialect.lockSkippingLocked(due)) as RawRow[];
      const aggregates = new Map<string, OutboxEvent[]>();
      if (claimed.length === 0) return {aggregates};
      const headIds = claimed.map((row) => Number(row.id));
      const rows = (await this.pending(trx(this.ref).select('*'))
        .where('id', '<=', upTo)
        .whereIn(
          'aggregate',
          claimed.map((row) => String(row.aggregate)),
        )
        .orderBy('id')
        .limit(Math.max(maxRows, claimed.length))) as RawRow[];
      for (const row of rows) {
        const event = eventOf(row);
        const list = aggregates.get(event.aggregate) ?? [];
        // Only from the head on: a row can only be delivered after every earlier one of its aggregate.
        if (list.length > 0 || headIds.includes(event.id)) list.push(event);
        if (list.length > 0) aggregates.set(event.aggregate, list);
      }
      // Only the heads whose rows this claim hands over are leased: a head `maxRows` left out stays
      // due (its lock ends with this transaction) instead of waiting out a lease nobody delivers.
      const taken = [...aggregates.values()].map((list) => (list[0] as OutboxEvent).id);
      if (taken.length > 0) {
        await trx(this.ref)
          .whereIn('id', taken)
          .update({next_attempt_at: this.time(new Date(now.getTime() + leaseMs))});
      }
      return {aggregates};
    });
  }

  /** The claim a database writes its own way: its rows in id order, each due aggregate's starting at its head (the lowest pending id of it). */
  private async ownClaim(own: NonNullable<OutboxStore['own']>, now: Date, leaseMs: number, maxAggregates: number, maxRows: number, upTo: number): Promise<Claim> {
    const aggregates = new Map<string, OutboxEvent[]>();
    for (const row of await own.claim(this.db, this.ref, now, leaseMs, maxAggregates, maxRows, upTo)) {
      const event = eventOf(row);
      const list = aggregates.get(event.aggregate) ?? [];
      list.push(event);
      aggregates.set(event.aggregate, list);
    }
    return {aggregates};
  }

  private settled: number | undefined;
  private gap: {id: number; since: number} | undefined;

  /**
   * The highest id below which every id is committed — or was waited for `gapWaitMs` and given up
   * (a rolled-back change leaves its id unused for good). Ids are handed out before commit: a
   * later id of a table can commit first, and delivering it before the earlier one would break
   * the order per aggregate. The claim takes no row above this. It starts at the last row known
   * to be done (delivered or dead), else just below the oldest row: a change in flight at the very
   * moment a dispatcher starts on an outbox with nothing delivered yet is not waited for.
   */
  async settledUpTo(nowMs: number, gapWaitMs: number): Promise<number> {
    if (this.settled === undefined) {
      // From the last row known to be done (delivered or dead): what lies above it is looked at id by id.
      const done = (await this.db(this.ref)
        .max({last: 'id'})
        .where((qb) => qb.whereNotNull('dispatched_at').orWhere('dead', this.dialect.storedBoolean(true)))
        .first()) as RawRow | undefined;
      if (done?.last !== null && done?.last !== undefined) this.settled = Number(done.last);
      else {
        // Nothing done yet: from just below the oldest row there is (an empty outbox: nothing to claim yet).
        const first = (await this.db(this.ref).min({first: 'id'}).first()) as RawRow | undefined;
        if (first?.first === null || first?.first === undefined) return 0;
        this.settled = Number(first.first) - 1;
      }
    }
    const rows = (await this.db(this.ref).select('id').where('id', '>', this.settled).orderBy('id').limit(10_000)) as RawRow[];
    let expected = this.settled + 1;
    for (const row of rows) {
      const id = Number(row.id);
      if (id !== expected) {
        if (this.gap?.id !== expected) this.gap = {id: expected, since: nowMs};
        if (nowMs - this.gap.since < gapWaitMs) break;
      }
      expected = id + 1;
      this.gap = undefined;
    }
    this.settled = expected - 1;
    return this.settled;
  }

  /** Delivered (or filtered out by the subscription): done, never sent again unless replayed. */
  async markDispatched(ids: number[], at: Date): Promise<void> {
    if (this.own) return this.own.markDispatched(this.db, this.ref, ids, at);
    for (let from = 0; from < ids.length; from += 500) {
      await this.db(this.ref)
        .whereIn('id', ids.slice(from, from + 500))
        .update({dispatched_at: this.time(at), next_attempt_at: null});
    }
  }

  /** A failed delivery: counted, the reason kept, the next attempt scheduled — or dead after the last allowed attempt. */
  async markFailed(event: OutboxEvent, error: string, nextAttemptAt: Date | null, dead: boolean): Promise<void> {
    await this.db(this.ref)
      .where('id', event.id)
      .update({
        attempts: event.attempts + 1,
        last_error: error.slice(0, 1000),
        next_attempt_at: nextAttemptAt ? this.time(nextAttemptAt) : null,
        dead: this.dialect.storedBoolean(dead),
      });
  }

  /** Gives a lease back without counting an attempt (the dispatcher is stopping). */
  async release(ids: number[]): Promise<void> {
    if (ids.length > 0) await this.db(this.ref).whereIn('id', ids).whereNull('dispatched_at').update({next_attempt_at: null});
  }

  async list(options: {state: EventState; from?: number; limit: number; aggregate?: string}): Promise<OutboxEvent[]> {
    let query = this.db(this.ref).select('*').orderBy('id').limit(options.limit);
    if (options.from !== undefined) query = query.where('id', '>=', options.from);
    if (options.aggregate) query = query.where('aggregate', options.aggregate);
    if (options.state === 'pending') query = this.pending(query);
    if (options.state === 'dispatched') query = query.whereNotNull('dispatched_at');
    if (options.state === 'dead') query = query.where('dead', this.dialect.storedBoolean(true)).whereNull('dispatched_at');
    return ((await query) as RawRow[]).map(eventOf);
  }

  /** Rows with id above `afterId`, in id order, whatever their delivery state (the subscriptions' tail). */
  async after(afterId: number, limit: number): Promise<OutboxEvent[]> {
    return ((await this.db(this.ref).select('*').where('id', '>', afterId).orderBy('id').limit(limit)) as RawRow[]).map(eventOf);
  }

  async lastId(): Promise<number> {
    const row = (await this.db(this.ref).max({last: 'id'}).first()) as RawRow | undefined;
    return Number(row?.last ?? 0);
  }

  /** `replay --from <id>`: every row from that id on is delivered again (attempts and dead letters reset). */
  async replay(fromId: number): Promise<number> {
    return this.db(this.ref)
      .where('id', '>=', fromId)
      .update({dispatched_at: null, attempts: 0, dead: this.dialect.storedBoolean(false), next_attempt_at: null, last_error: null});
  }

  /** `retry <id>`: a dead letter (or a row waiting out its backoff) is tried again now. */
  async retry(id: number): Promise<OutboxEvent> {
    const row = (await this.db(this.ref).select('*').where('id', id).first()) as RawRow | undefined;
    if (!row) throw new WorkbenchError('not_found', `no event ${id} in the outbox`);
    const event = eventOf(row);
    if (event.dispatchedAt) throw new WorkbenchError('invalid_argument', `event ${id} was delivered at ${event.dispatchedAt}: use replay --from ${id} to send it again`);
    await this.db(this.ref)
      .where('id', id)
      .update({attempts: 0, dead: this.dialect.storedBoolean(false), next_attempt_at: null, last_error: null});
    return {...event, attempts: 0, dead: false, nextAttemptAt: null, lastError: null};
  }
}
