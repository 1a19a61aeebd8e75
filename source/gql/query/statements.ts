import type {Knex} from 'knex';
import type {GqlRequestContext, Provider, Row} from '../types.js';

/** A compiled statement: SQL with `?` placeholders and its values. */
export interface Statement {
  sql: string;
  bindings: readonly unknown[];
  /** The driver's own form (`$1` placeholders on PostgreSQL), sent without knex on the hot path. */
  native?: {sql: string; bindings: readonly unknown[]};
}

export function compile(qb: Knex.QueryBuilder | Knex.Raw): Statement {
  const compiled = qb.toSQL();
  const native = compiled.toNative();
  return {sql: compiled.sql, bindings: compiled.bindings, native: {sql: native.sql, bindings: native.bindings}};
}

interface PgConnection {
  query(config: {text: string; values: readonly unknown[]}): Promise<{rows: Row[]}>;
}

interface PooledClient {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(connection: PgConnection): Promise<unknown>;
}

/**
 * PostgreSQL without knex's per-query machinery (its Raw, Runner and response processing cost
 * ~190 µs of CPU per statement on the benchmark's deep query, more than the driver): a pooled
 * connection from knex's own pool, the pre-compiled native SQL, the rows.
 */
async function runOnPg(ctx: GqlRequestContext, native: NonNullable<Statement['native']>): Promise<Row[]> {
  const client = ctx.db.client as unknown as PooledClient;
  const connection = await client.acquireConnection();
  try {
    return (await connection.query({text: native.sql, values: native.bindings})).rows;
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
