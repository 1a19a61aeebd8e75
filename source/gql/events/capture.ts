import type {Knex} from 'knex';
import {dialectOf} from '../dialect/dialect-of.js';
import {applyRowPolicy} from '../policy/row-policy.js';
import type {EventOp, GqlTable, ModelEvents, Row, RowPolicy} from '../types.js';
import type {PreparedWrite, WriteScope} from '../mutate/prepare.js';
import {runStatement, type WriteRunner} from '../mutate/statements.js';
import {OWN_OUTBOX_STATEMENTS} from './outbox-statements.js';
import {buildPayload, jsonRow, tenantOf} from './payload.js';

/** One outbox row as the service writes it (the database fills id and the dispatch columns). */
export interface OutboxInsert {
  aggregate: string;
  aggregate_id: string;
  op: EventOp;
  payload: string;
  tenant: string | null;
  created_at: unknown;
}

/** Bound parameters per outbox insert: 6 a row, under SQLite's 999. */
const OUTBOX_ROWS_PER_STATEMENT = 150;

/** Rows per JSON document on PostgreSQL (one bound parameter, whatever the count). */
const JSON_ROWS_PER_STATEMENT = 1000;

/** One outbox row as a JSON object; the payload is JSON text already and goes in as it is. */
function jsonRowText(row: OutboxInsert): string {
  const created = row.created_at instanceof Date ? row.created_at.toISOString() : row.created_at;
  return `{"aggregate":${JSON.stringify(row.aggregate)},"aggregate_id":${JSON.stringify(row.aggregate_id)},"op":${JSON.stringify(row.op)},"payload":${row.payload},"tenant":${JSON.stringify(row.tenant)},"created_at":${JSON.stringify(created)}}`;
}

/** The outbox's timestamps as each database takes them (SQLite: ISO text, which sorts as it reads). */
export function outboxTime(provider: WriteScope['model']['provider'], at: Date): unknown {
  return dialectOf(provider).storesDatesAsText ? at.toISOString() : at;
}

/**
 * Collects the change events of one transaction and writes them to the outbox before it commits:
 * the change and its event commit together or not at all (a rolled-back change leaves no event).
 */
export class EventRecorder {
  readonly rows: OutboxInsert[] = [];

  constructor(
    private readonly outbox: ModelEvents['outbox'],
    private readonly scope: WriteScope,
  ) {}

  get table(): GqlTable {
    return this.scope.table;
  }

  emits(op: EventOp): boolean {
    return this.table.events?.ops.includes(op) ?? false;
  }

  /** Whether images are read at all (`keys` needs none). */
  get wantsImages(): boolean {
    return this.table.events?.payload !== 'keys';
  }

  add(op: EventOp, key: Row, before: Row | undefined, after: Row | undefined, forced?: Row): void {
    const events = this.table.events;
    if (!events || !this.emits(op)) return;
    const payload = buildPayload(events.payload, this.table, op, key, before, after);
    this.rows.push({
      aggregate: this.table.key,
      aggregate_id: JSON.stringify(jsonRow(key)),
      op,
      payload: JSON.stringify(payload),
      tenant: tenantOf(this.table, after, before, forced),
      created_at: outboxTime(this.scope.model.provider, this.scope.clock.now),
    });
  }

  /** Writes what was recorded, in order, in the runner's transaction. */
  async flush(runner: WriteRunner): Promise<number> {
    const {provider} = this.scope.model;
    const ref = dialectOf(provider).qualifiedName(this.outbox.schema, this.outbox.name);
    const own = OWN_OUTBOX_STATEMENTS[provider];
    if (this.outbox.jsonRows && own) {
      // One JSON document a statement instead of six parameters a row (PostgreSQL, outbox-postgres.ts). Same rows, same order.
      for (let at = 0; at < this.rows.length; at += JSON_ROWS_PER_STATEMENT) {
        const document = `[${this.rows
          .slice(at, at + JSON_ROWS_PER_STATEMENT)
          .map(jsonRowText)
          .join(',')}]`;
        await runStatement(runner, own.insertJsonDocument(runner.trx, ref, document));
      }
      return this.rows.length;
    }
    for (let at = 0; at < this.rows.length; at += OUTBOX_ROWS_PER_STATEMENT) {
      await runStatement(runner, runner.trx(ref).insert(this.rows.slice(at, at + OUTBOX_ROWS_PER_STATEMENT)));
    }
    return this.rows.length;
  }
}

/**
 * The recorder for writes on `scope`'s table, when it emits events; undefined otherwise — and when
 * its events come from installed triggers, which write them within the same statement.
 */
export function recorderFor(scope: WriteScope): EventRecorder | undefined {
  const outbox = scope.model.events?.outbox;
  if (!scope.table.events || !outbox || scope.table.events.capture === 'trigger') return undefined;
  return new EventRecorder(outbox, scope);
}

export function keyText(table: GqlTable, row: Row): string {
  return JSON.stringify(table.primaryKey.map((column) => jsonRow({v: row[column]}).v));
}

/**
 * The whole rows of `keys` inside `policy`, locked for the rest of the transaction where the
 * database locks rows (a before image no concurrent write can change before ours), in key order
 * of the request. SQLite has one writer: its transaction already excludes the others.
 */
export async function rowsByKeys(runner: WriteRunner, scope: WriteScope, keys: Row[], policy: RowPolicy | undefined, lock: boolean): Promise<Map<string, Row>> {
  const found = new Map<string, Row>();
  const {table} = scope;
  const columns = table.primaryKey;
  for (let at = 0; at < keys.length; at += 500) {
    const part = keys.slice(at, at + 500);
    let query: Knex.QueryBuilder = runner.trx(scope.ref).select(`${scope.alias}.*`);
    if (columns.length === 1) {
      const column = columns[0] as string;
      query = query.whereIn(`${scope.alias}.${column}`, part.map((key) => key[column]) as Knex.Value[]);
    } else {
      query = query.whereIn(
        columns.map((column) => `${scope.alias}.${column}`),
        part.map((key) => columns.map((column) => key[column])) as Knex.Value[][],
      );
    }
    if (policy) query = query.where((qb) => applyRowPolicy(qb, policy, scope.alias));
    if (lock) query = dialectOf(scope.model.provider).lockForUpdate(query);
    for (const row of await runStatement<Row[]>(runner, query)) found.set(keyText(table, row), row);
  }
  return found;
}

/** The key columns of a row. */
export function keyOf(table: GqlTable, row: Row): Row {
  const key: Row = {};
  for (const column of table.primaryKey) key[column] = row[column];
  return key;
}

/** The event operation a prepared write is, once it changed a row (an upsert: update when the row was there). */
export function eventOpOf(write: PreparedWrite, existed: boolean): EventOp {
  switch (write.op) {
    case 'insert':
      return 'insert';
    case 'update':
      return 'update';
    case 'upsert':
      return existed ? 'update' : 'insert';
    case 'delete':
    case 'soft-delete':
      return 'delete';
  }
}
