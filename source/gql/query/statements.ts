import {createHash} from 'node:crypto';
import type {Knex} from 'knex';
import type {GqlRequestContext, Provider, Row} from '../types.js';

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

interface PgConnection {
  query(config: {name?: string; text: string; values: readonly unknown[]}): Promise<{rows: Row[]}>;
}

const MAX_PREPARED = 500;
const preparedOn = new WeakMap<PgConnection, Set<string>>();

interface PooledClient {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(connection: PgConnection): Promise<unknown>;
}

/**
 * PostgreSQL without knex's per-query machinery (its Raw, Runner and response processing cost
 * ~190 µs of CPU per statement on the benchmark's deep query, more than the driver): a pooled
 * connection from knex's own pool, the pre-compiled native SQL as a prepared statement (the
 * database parses and plans a JSON-building query once per connection, not on every request),
 * the rows.
 */
async function runOnPg(ctx: GqlRequestContext, native: NonNullable<Statement['native']>): Promise<Row[]> {
  const client = ctx.db.client as unknown as PooledClient;
  const connection = await client.acquireConnection();
  try {
    // A connection keeps at most MAX_PREPARED statements (the server holds each one's plan); past that, the rest are sent unprepared.
    let prepared = preparedOn.get(connection);
    if (!prepared) preparedOn.set(connection, (prepared = new Set()));
    if (prepared.size < MAX_PREPARED) prepared.add(native.name);
    const name = prepared.has(native.name) ? native.name : undefined;
    return (await connection.query(name ? {name, text: native.sql, values: native.bindings} : {text: native.sql, values: native.bindings})).rows;
  } finally {
    await client.releaseConnection(connection);
  }
}

/** The rows of a `db.raw` result, whatever the driver's shape. */
export function rowsOf(provider: Provider, result: unknown): Row[] {
  if (provider === 'postgres') return ((result as {rows?: Row[]}).rows ?? []) as Row[];
  if (provider === 'mysql') {
    const first = (result as unknown[])[0];
    // A CALL answers [[rows…], okPacket]; a SELECT answers [rows, fields].
    if (Array.isArray(first) && Array.isArray(first[0])) return first[0] as Row[];
    return Array.isArray(first) ? (first as Row[]) : [];
  }
  return Array.isArray(result) ? (result as Row[]) : [];
}

/** Sends one statement, and records it when the request asked for the SQL (debug). */
export async function run(ctx: GqlRequestContext, statement: Statement, options: {timeoutMs?: number} = {}): Promise<Row[]> {
  const started = performance.now();
  if (statement.native && ctx.model.provider === 'postgres' && options.timeoutMs === undefined) {
    try {
      return await runOnPg(ctx, statement.native);
    } finally {
      ctx.statements?.push({sql: statement.sql, bindings: statement.bindings, ms: Math.round((performance.now() - started) * 1000) / 1000});
    }
  }
  let query = ctx.db.raw(statement.sql, statement.bindings as Knex.RawBinding[]);
  if (options.timeoutMs !== undefined) query = query.timeout(options.timeoutMs, {cancel: ctx.model.provider !== 'sqlite'});
  try {
    return rowsOf(ctx.model.provider, await query);
  } finally {
    ctx.statements?.push({sql: statement.sql, bindings: statement.bindings, ms: Math.round((performance.now() - started) * 1000) / 1000});
  }
}

/** A JSON column as the driver hands it: parsed already (PostgreSQL json) or text (SQLite, MariaDB). */
export function parseJson(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}
