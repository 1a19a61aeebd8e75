import type {Knex} from 'knex';

type RawRow = Record<string, unknown>;

/** The outbox statements PostgreSQL writes its own way (outbox-statements.ts); the other databases run outbox-store.ts's portable ones. */
export const postgresOutbox = {
  /**
   * The claim in one statement (one round trip, where the portable transaction takes five): the
   * heads found by a skip scan of the pending index (one probe per aggregate, where grouping read
   * every pending row — 42 ms a claim at 200,000 pending, 0.4 ms this way), the due ones locked
   * (`SKIP LOCKED`), their pending rows read, and the heads those rows include leased, all in the
   * statement's own transaction. Answers the rows, in id order.
   */
  async claim(db: Knex, ref: string, now: Date, leaseMs: number, maxAggregates: number, maxRows: number, upTo: number): Promise<RawRow[]> {
    // `upTo` is a whole number of ours (settledUpTo), never text from outside.
    const pending = `dispatched_at is null and not dead and id <= ${Math.floor(Number(upTo))}`;
    const result = (await db.raw(
      `with recursive wb_heads(aggregate, id) as (
  (select aggregate, id from ?? where ${pending} order by aggregate, id limit 1)
  union all
  select next.aggregate, next.id from wb_heads cross join lateral
    (select aggregate, id from ?? where ${pending} and aggregate > wb_heads.aggregate order by aggregate, id limit 1) as next
),
wb_due as (
  select id, aggregate from ?? where ${pending} and id in (select id from wb_heads)
    and (next_attempt_at is null or next_attempt_at <= ?) order by id limit ? for update skip locked
),
wb_rows as (
  select * from ?? where ${pending} and aggregate in (select aggregate from wb_due) order by id limit ?
),
wb_leased as (
  update ?? set next_attempt_at = ? where id in (select id from wb_due where id in (select id from wb_rows)) returning id
)
select * from wb_rows order by id`,
      [ref, ref, ref, now, maxAggregates, ref, Math.max(maxRows, maxAggregates), ref, new Date(now.getTime() + leaseMs)],
    )) as {rows: RawRow[]};
    return result.rows;
  },

  /** Marks `ids` delivered with one array parameter: a 500-parameter IN list cost more to plan than to run. */
  async markDispatched(db: Knex, ref: string, ids: number[], at: Date): Promise<void> {
    if (ids.length > 0) await db(ref).whereRaw('id = any(?::bigint[])', [ids]).update({dispatched_at: at, next_attempt_at: null});
  },

  /** The outbox has the contract's PostgreSQL types (payload jsonb, created_at timestamptz): the JSON document insert writes them as they are. */
  takesJsonDocument(typeOf: (column: string) => string | undefined): boolean {
    return typeOf('payload') === 'jsonb' && ['timestamp with time zone', 'timestamptz'].includes(typeOf('created_at') ?? '');
  },

  /**
   * One insert of a transaction's outbox rows from one JSON document (a single bound parameter,
   * where six a row made a VALUES list that cost more to plan than its rows to write).
   */
  insertJsonDocument(trx: Knex, ref: string, document: string): Knex.Raw {
    return trx.raw(
      `insert into ?? (aggregate, aggregate_id, op, payload, tenant, created_at) select aggregate, aggregate_id, op, payload, tenant, created_at from jsonb_to_recordset(?::jsonb) as wb_events(aggregate text, aggregate_id text, op text, payload jsonb, tenant text, created_at timestamptz)`,
      [ref, document],
    );
  },
};
