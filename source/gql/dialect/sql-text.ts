import type {Knex} from 'knex';
import {WorkbenchError} from '../../core/errors.js';
import type {GuardOn, JsonPair, OrderKey, RowList, UpsertRow} from './dialect.js';

// SQL text more than one dialect writes alike.

// A response key goes into the SQL as a string literal: GraphQL names can hold nothing else.
const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** A GraphQL response key as an SQL string literal (refused unless it is a GraphQL name). */
export function literalKey(key: string): string {
  if (!GRAPHQL_NAME.test(key)) throw new WorkbenchError('internal', `not a GraphQL name: ${key}`);
  return `'${key}'`;
}

/** `fn('key', value, …)`: a JSON object function called over `pairs`. */
export function jsonCall(fn: string, pairs: JsonPair[]): {sql: string; bindings: unknown[]} {
  return {
    sql: `${fn}(${pairs.map((pair) => `${literalKey(pair.key)}, ${pair.sql}`).join(', ')})`,
    bindings: pairs.flatMap((pair) => pair.bindings),
  };
}

/** An ORDER BY list of `order` (`?? desc, ?? asc`) and its bindings. */
export function orderSql(order: OrderKey[]): {sql: string; bindings: string[]} {
  return {sql: order.map((key) => `?? ${key.descending ? 'desc' : 'asc'}`).join(', '), bindings: order.map((key) => key.ref)};
}

export function orderRows(rows: Knex.QueryBuilder, order: OrderKey[]): void {
  for (const key of order) rows.orderBy(key.ref, key.descending ? 'desc' : 'asc');
}

/** The list's rows ordered and cut to the window, each row's object selected as `j`: the derived table an aggregate reads in order. */
export function windowedRows(db: Knex, list: RowList): Knex.QueryBuilder {
  orderRows(list.rows, list.order);
  list.rows.select(db.raw('? as j', [list.object])).limit(list.limit);
  if (list.offset > 0) list.rows.offset(list.offset);
  return list.rows;
}

/** `"name"` for PostgreSQL and SQLite, written into catalogue SQL. */
export function quoteDouble(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** For the paths a database does not take (the model or the settings refuse it first). */
export function notOn(database: string, what: string): never {
  throw new WorkbenchError('internal', `${what} is not a path ${database} takes`);
}

/** `?, ?, ?`: `count` copies of `item`. */
export const list = (count: number, item: string) => Array.from({length: count}, () => item).join(', ');

/** The columns an upsert's conflict branch sets: those of `set`, or the first key set to itself when `set` is empty. */
export const upsertSetColumns = (upsert: UpsertRow) => (Object.keys(upsert.set).length > 0 ? Object.keys(upsert.set) : [upsert.keyColumns[0] as string]);

/** `INSERT … ON CONFLICT (key) DO UPDATE … WHERE guard RETURNING key`: PostgreSQL's and SQLite's upsert. */
export function onConflictUpsert(db: Knex, upsert: UpsertRow, guardOn: GuardOn): Knex.Raw {
  const columns = Object.keys(upsert.row);
  const values = columns.map((column) => upsert.row[column]);
  const setColumns = upsertSetColumns(upsert);
  const keys = upsert.keyColumns;
  const guard = guardOn(upsert.alias);
  const assignments = setColumns.map((column) => (column in upsert.set ? '?? = ?' : '?? = excluded.??'));
  const assignmentBindings = setColumns.flatMap((column) => (column in upsert.set ? [column, upsert.set[column]] : [column, column]));
  const sql =
    `insert into ?? (${list(columns.length, '??')}) values (${list(columns.length, '?')}) ` +
    `on conflict (${list(keys.length, '??')}) do update set ${assignments.join(', ')}` +
    (guard ? ` where ${guard.sql}` : '') +
    ` returning ${list(keys.length, '??')}`;
  return db.raw(sql, [upsert.ref, ...columns, ...values, ...keys, ...assignmentBindings, ...(guard?.bindings ?? []), ...keys] as Knex.RawBinding[]);
}
