import type {Knex} from 'knex';
import type {GqlRequestContext, Provider, Row} from '../types.js';

/** A compiled statement: SQL with `?` placeholders and its values. */
export interface Statement {
  sql: string;
  bindings: readonly unknown[];
}

export function compile(qb: Knex.QueryBuilder | Knex.Raw): Statement {
  const {sql, bindings} = qb.toSQL();
  return {sql, bindings};
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
