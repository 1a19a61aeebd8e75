import {WorkbenchError} from '../../core/errors.js';
import type {GqlColumn, GqlTable, Row} from '../types.js';

/** The write operations a column can take part in (an update-set is the non-key part of an update). */
export type WriteRole = 'insert' | 'upsert' | 'update-set' | 'key';

/** The soft-delete columns are the delete path's to write, never a client's. */
function isSoftDeleteColumn(table: GqlTable, column: GqlColumn): boolean {
  return column.dbName === table.softDelete?.column || column.dbName === table.softDelete?.byColumn;
}

/**
 * Whether a client may send `column` for `role`. Hidden columns are never accepted; populate
 * and soft-delete columns are filled by the service; identity columns are the database's on
 * insert (an upsert may name one to address an existing row); `update: none` columns may be set
 * when a row is created but never changed; key columns address the row, never change it.
 */
export function acceptsColumn(table: GqlTable, column: GqlColumn, role: WriteRole): boolean {
  if (column.hidden) return false;
  if (role === 'key') return column.isPrimaryKey;
  if (column.populate !== undefined || isSoftDeleteColumn(table, column)) return false;
  switch (role) {
    case 'insert':
      return !column.isIdentity;
    case 'upsert':
      return !column.isIdentity || column.isPrimaryKey;
    case 'update-set':
      return !column.isPrimaryKey && !column.readOnly && !column.isIdentity;
  }
}

/** Why `column` is refused for `role`, for the error message. */
function refusal(table: GqlTable, column: GqlColumn, role: WriteRole): string {
  if (column.hidden) return `${table.name} has no column "${column.name}"`;
  if (column.populate !== undefined) return `${table.name}.${column.name} is filled by the service (populate: ${column.populate})`;
  if (isSoftDeleteColumn(table, column)) return `${table.name}.${column.name} is written by soft delete only`;
  if (column.isPrimaryKey && role === 'update-set') return `${table.name}.${column.name} is a key column: it addresses the row and cannot be changed`;
  if (column.isIdentity) return `${table.name}.${column.name} is filled by the database (identity)`;
  if (column.readOnly) return `${table.name}.${column.name} is read-only (update: none)`;
  return `${table.name}.${column.name} cannot be written here`;
}

/**
 * A client's values (GraphQL field names) as database column names, each checked against the
 * role: an unknown, hidden, managed or read-only column is refused, never silently dropped, so a
 * caller going around the GraphQL input types learns what it may not do.
 */
export function toDbValues(table: GqlTable, values: Row, role: WriteRole): Row {
  const row: Row = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const column = table.columns.find((candidate) => candidate.name === name);
    if (!column) throw new WorkbenchError('invalid_argument', `${table.name} has no column "${name}"`);
    if (!acceptsColumn(table, column, role)) throw new WorkbenchError('invalid_argument', refusal(table, column, role));
    row[column.dbName] = writableValue(column, value);
  }
  return row;
}

/** JSON columns take text on every driver (pg would turn an array into a Postgres array). */
function writableValue(column: GqlColumn, value: unknown): unknown {
  if (column.kind === 'json' && value !== null && typeof value === 'object') return JSON.stringify(value);
  return value;
}

export function keyColumns(table: GqlTable): GqlColumn[] {
  return table.primaryKey.map((dbName) => {
    const column = table.columns.find((candidate) => candidate.dbName === dbName);
    if (!column) throw new WorkbenchError('internal', `${table.name}: key column ${dbName} is not in the model`);
    return column;
  });
}

/** The key (database names) when `values` (GraphQL names) carries every key column, else undefined. */
export function keyOf(table: GqlTable, values: Row): Row | undefined {
  const key: Row = {};
  for (const column of keyColumns(table)) {
    const value = values[column.name];
    if (value === undefined || value === null) return undefined;
    key[column.dbName] = value;
  }
  return key;
}

/** Like keyOf, but a missing key column is the caller's error. */
export function requireKey(table: GqlTable, values: Row, what: string): Row {
  const key = keyOf(table, values);
  if (!key) {
    const names = keyColumns(table).map((column) => column.name);
    throw new WorkbenchError('invalid_argument', `${what} on ${table.name} needs its key: ${names.join(', ')}`);
  }
  return key;
}

/** The non-key values of `values` (GraphQL names). */
export function withoutKey(table: GqlTable, values: Row): Row {
  const keys = new Set(keyColumns(table).map((column) => column.name));
  return Object.fromEntries(Object.entries(values).filter(([name]) => !keys.has(name)));
}
