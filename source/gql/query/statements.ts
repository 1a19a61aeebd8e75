import {createHash} from 'node:crypto';
import type {Knex} from 'knex';
import {dialectOf} from '../dialect/dialect-of.js';
import type {GqlRequestContext, Row, SqliteReaders} from '../types.js';
import {mysqlQuery, type DriverConnection} from '../dialect/driver-connection.js';
import {abandoned, deadlineExceeded, statementTimeoutMs, withDeadline, type Deadline} from './deadline.js';
import {StatementCut} from './sqlite-readers/reader-pool.js';

/** A compiled statement: SQL with `?` placeholders and its values. */
export interface Statement {
  sql: string;
  bindings: readonly unknown[];
  /** The driver's own form (`$1` placeholders on PostgreSQL), sent without knex on the hot path, prepared under `name`. */
  native?: {sql: string; bindings: readonly unknown[]; name: string};
}

export function compile(qb: Knex.QueryBuilder | Knex.Raw): Statement {
  const compiled = qb.toSQL();
  const native = compiled.toNative();
  // Named by its text: the same statement is parsed and planned once per connection, not per request.
  const name = `wb_${createHash('sha256').update(native.sql).digest('base64url').slice(0, 22)}`;
  return {sql: compiled.sql, bindings: compiled.bindings, native: {sql: native.sql, bindings: native.bindings, name}};
}

const MAX_PREPARED = 500;
const preparedOn = new WeakMap<DriverConnection, Set<string>>();

interface PooledClient {
  acquireConnection(): Promise<DriverConnection>;
  releaseConnection(connection: DriverConnection): Promise<unknown>;
}

/**
 * PostgreSQL without knex's per-query machinery (its Raw, Runner and response processing cost
 * ~190 µs of CPU per statement on the benchmark's deep query, more than the driver): the
 * pre-compiled native SQL as a prepared statement (the database parses and plans a JSON-building
 * query once per connection, not on every request), the rows.
 */
async function sendOnPg(connection: DriverConnection, native: NonNullable<Statement['native']>, prepare: boolean): Promise<Row[]> {
  if (!prepare) return ((await (connection.query(native.sql, native.bindings) as Promise<{rows: Row[]}>)).rows ?? []) as Row[];
  // A connection keeps at most MAX_PREPARED statements (the server holds each one's plan); past that, the rest are sent unprepared.
  let prepared = preparedOn.get(connection);
  if (!prepared) preparedOn.set(connection, (prepared = new Set()));
  if (prepared.size < MAX_PREPARED) prepared.add(native.name);
  const name = prepared.has(native.name) ? native.name : undefined;
  const config = name ? {name, text: native.sql, values: native.bindings} : {text: native.sql, values: native.bindings};
  return ((await (connection.query(config) as Promise<{rows: Row[]}>)).rows ?? []) as Row[];
}

/** A statement written by hand (`_rawQuery`'s SQL and params) compiled as `db.raw` would send it (sent unprepared: it is the caller's). */
function compiledForDriver(ctx: GqlRequestContext, statement: Statement): Statement {
  if (statement.native) return statement;
  return compile(ctx.db.raw(statement.sql, statement.bindings as Knex.RawBinding[]));
}

/**
 * PostgreSQL and MySQL/MariaDB: a connection from knex's own pool, held for the statement under
 * its deadline and cancel (deadline.ts), then given back.
 */
async function runPooled(ctx: GqlRequestContext, statement: Statement, deadline: Deadline): Promise<Row[]> {
  if (ctx.signal?.aborted) throw abandoned();
  const dialect = dialectOf(ctx.model.provider);
  const client = ctx.db.client as unknown as PooledClient;
  const sendable = compiledForDriver(ctx, statement);
  const connection = await client.acquireConnection();
  try {
    return await withDeadline(ctx, connection, deadline, async () =>
      dialect.sendsPreparedNative && sendable.native
        ? sendOnPg(connection, sendable.native, sendable === statement)
        : dialect.rowsOf(await mysqlQuery(connection, sendable.sql, sendable.bindings)),
    );
  } finally {
    await client.releaseConnection(connection);
  }
}

/**
 * SQLite on a file: the statement in a reader process (sqlite-readers/), off this thread, ended
 * with its process at the deadline or when the client leaves. Undefined for a statement that
 * writes (a `_rawQuery` UPDATE): the readers' connections are read-only, so it runs here.
 */
async function runOnReader(ctx: GqlRequestContext, readers: SqliteReaders, statement: Statement, deadline: Deadline): Promise<Row[] | undefined> {
  const sendable = compiledForDriver(ctx, statement);
  try {
    const outcome = await readers.read({sql: sendable.sql, bindings: sendable.bindings, ms: deadline.ms, ...(ctx.signal ? {signal: ctx.signal} : {})});
    return 'rows' in outcome ? outcome.rows : undefined;
  } catch (error) {
    if (error instanceof StatementCut) throw error.reason === 'deadline' ? deadlineExceeded(deadline) : abandoned();
    throw error;
  }
}

/**
 * Sends one statement under the request's deadline (`statement-timeout`, or the `_rawQuery`
 * timeout given) and cancel, and records it when the request asked for the SQL (debug). SQLite on
 * a file reads in its reader processes; inside a write's transaction (which must see its own
 * writes) and on `:memory:` (which no other connection can open) it runs on this thread, as
 * every SQLite write does — those are bounded by the cost limit (cost.ts), not interrupted.
 */
export async function run(ctx: GqlRequestContext, statement: Statement, options: {timeoutMs?: number} = {}): Promise<Row[]> {
  const started = performance.now();
  const dialect = dialectOf(ctx.model.provider);
  const deadline: Deadline =
    options.timeoutMs === undefined ? {ms: statementTimeoutMs(ctx.model), setting: 'statement-timeout'} : {ms: options.timeoutMs, setting: 'raw-sql-timeout'};
  try {
    if (dialect.runsPooledWithDeadline) return await runPooled(ctx, statement, deadline);
    // Set on SQLite on a file only (sqlite-readers/).
    if (ctx.sqliteReaders && !ctx.db.isTransaction) {
      const rows = await runOnReader(ctx, ctx.sqliteReaders, statement, deadline);
      if (rows) return rows;
    }
    let query = ctx.db.raw(statement.sql, statement.bindings as Knex.RawBinding[]);
    if (options.timeoutMs !== undefined) query = query.timeout(options.timeoutMs, {cancel: dialect.cancelsOnTimeout});
    return dialect.rowsOf(await query);
  } finally {
    ctx.statements?.push({sql: statement.sql, bindings: statement.bindings, ms: Math.round((performance.now() - started) * 1000) / 1000});
  }
}

/** A JSON column as the driver hands it: parsed already (PostgreSQL json) or text (SQLite, MariaDB). */
export function parseJson(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}
