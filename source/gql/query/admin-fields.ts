import {WorkbenchError} from '../../core/errors.js';
import {dialectOf} from '../dialect/dialect-of.js';
import type {FilterInput, GqlProcedure, GqlRequestContext, GqlTable, Row} from '../types.js';
import {applyFilter} from './filter-sql.js';
import {readPolicy, tableRef} from './sql-parts.js';
import {effectiveLimit} from './limits.js';
import {compile, run} from './statements.js';

function requireRole(ctx: GqlRequestContext, role: string, field: string): void {
  if (!ctx.user.roles.includes(role)) throw new WorkbenchError('forbidden', `${field} needs the role ${role}`);
}

const listed = (names: string[] | undefined, table: GqlTable) =>
  names?.some((name) => [table.key, table.name, table.dbName].some((candidate) => candidate.toLowerCase() === name.toLowerCase()));

/**
 * `_table(name, limit, offset, filter)`: rows of a table named at request time. The name is looked up
 * in the model (GraphQL name, `schema.table` or the table's own name) and must pass the allow/deny
 * lists; it never reaches SQL as text. Hidden tables and columns stay hidden, the read policy applies,
 * and rows are capped at `generic-table-max-rows` (else `max-query-rows`).
 */
export async function readGenericTable(args: {name: string; limit?: number | null; offset?: number | null; filter?: unknown}, ctx: GqlRequestContext): Promise<Row[]> {
  const {model} = ctx;
  requireRole(ctx, model.genericTable.role, '_table');
  const wanted = args.name.toLowerCase();
  const table = model.tables.find((candidate) => !candidate.hidden && [candidate.key, candidate.name, candidate.dbName].some((name) => name.toLowerCase() === wanted));
  if (!table) throw new WorkbenchError('not_found', `_table: no table ${JSON.stringify(args.name)}`);
  if (model.genericTable.allowed && model.genericTable.allowed.length > 0 && !listed(model.genericTable.allowed, table)) {
    throw new WorkbenchError('forbidden', `_table: ${table.name} is not in generic-table-allowed`);
  }
  if (listed(model.genericTable.denied, table)) throw new WorkbenchError('forbidden', `_table: ${table.name} is in generic-table-denied`);
  if (args.filter !== undefined && args.filter !== null && (typeof args.filter !== 'object' || Array.isArray(args.filter))) {
    throw new WorkbenchError('invalid_argument', '_table: filter must be an object like {col: {_eq: 1}}');
  }
  const cap = Math.min(model.genericTable.maxRows ?? model.maxQueryRows, model.maxQueryRows);
  const limit = Math.min(effectiveLimit(model, table, args.limit, 'root'), cap);
  const offset = args.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0) throw new WorkbenchError('invalid_argument', `offset must be a whole number ≥ 0`);
  const policy = readPolicy(ctx, table);
  const alias = 't0';
  const visible = table.columns.filter((column) => !column.hidden);
  const qb = ctx.db.from(tableRef(model, table, alias)).select(visible.map((column) => ({[column.name]: `${alias}.${column.dbName}`})));
  for (const predicate of policy.predicates) predicate.apply(qb, alias);
  if (args.filter) applyFilter(qb, table, args.filter as FilterInput, ctx, alias);
  for (const column of table.primaryKey) qb.orderBy(`${alias}.${column}`);
  qb.limit(limit);
  if (offset > 0) qb.offset(offset);
  return run(ctx, compile(qb));
}

/**
 * `_rawQuery(sql, params, timeout)`: the caller's SQL with `?` placeholders bound to `params`, for
 * holders of `raw-sql-role` only, within `raw-sql-timeout` seconds (the request may ask for less)
 * and cut to `raw-sql-max-rows` (else `max-query-rows`) rows.
 */
export async function runRawQuery(args: {sql: string; params?: unknown[] | null; timeout?: number | null}, ctx: GqlRequestContext): Promise<Row[]> {
  const {model} = ctx;
  requireRole(ctx, model.rawSql.role, '_rawQuery');
  if (args.sql.trim() === '') throw new WorkbenchError('invalid_argument', '_rawQuery: sql is empty');
  const params = args.params ?? [];
  const placeholders = (args.sql.match(/\?/g) ?? []).length;
  if (placeholders !== params.length) throw new WorkbenchError('invalid_argument', `_rawQuery: the sql has ${placeholders} ? placeholders and ${params.length} params`);
  const ceiling = model.rawSql.timeoutSeconds ?? 30;
  const seconds = args.timeout === undefined || args.timeout === null ? ceiling : Math.min(args.timeout, ceiling);
  if (!(seconds > 0)) throw new WorkbenchError('invalid_argument', '_rawQuery: timeout must be a positive number of seconds');
  const rows = await run(ctx, {sql: args.sql, bindings: params}, {timeoutMs: seconds * 1000});
  return rows.slice(0, Math.min(model.rawSql.maxRows ?? model.maxQueryRows, model.maxQueryRows));
}

/**
 * A stored procedure or function called with its `in` parameters in declared order; its rows as
 * JSON objects, at most `max-query-rows`. How it is called is the dialect's: PostgreSQL `select *
 * from fn(…)` (a procedure, which refuses that, is CALLed); MariaDB `CALL`, `out` parameters read
 * back from session variables as one row; SQL Server `EXEC`; SQLite has none.
 */
export async function callProcedure(procedure: GqlProcedure, args: Record<string, unknown>, ctx: GqlRequestContext): Promise<Row[]> {
  const rows = await dialectOf(ctx.model.provider).callProcedure(ctx.db, procedure, args, (statement) => run(ctx, compile(statement)));
  return rows.slice(0, ctx.model.maxQueryRows);
}
