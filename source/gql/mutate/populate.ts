import {dialectOf} from '../dialect/dialect-of.js';
import type {GqlColumn, GqlTable, PopulateKind, Provider, Row, UserContext} from '../types.js';

/** The moment of one request's writes, written alike into every column it stamps. */
export interface WriteClock {
  now: Date;
  provider: Provider;
}

/** When each populate kind is written (spec 3: created-* on insert, updated-* on insert and update, deleted-* on soft delete). */
const WRITTEN_ON: Record<'insert' | 'update' | 'soft-delete', PopulateKind[]> = {
  insert: ['created-by', 'updated-by', 'created-on', 'updated-on'],
  update: ['updated-by', 'updated-on'],
  'soft-delete': ['deleted-by', 'deleted-on'],
};

/**
 * A timestamp as the column takes it: a database without a date type (SQLite: text in ISO form
 * sorts and reads back as written; knex would bind a Date as epoch milliseconds) and text
 * columns take ISO text, the others the Date.
 */
export function timestampFor(column: GqlColumn | undefined, clock: WriteClock): unknown {
  const iso = clock.now.toISOString();
  const asText = dialectOf(clock.provider).storesDatesAsText;
  if (column?.kind === 'date') return asText ? iso.slice(0, 10) : clock.now;
  if (asText || column?.kind === 'string') return iso.replace('T', ' ').replace('Z', '');
  return clock.now;
}

/** The audit values a write of `when` adds, by database column name. */
export function populateValues(table: GqlTable, when: 'insert' | 'update' | 'soft-delete', user: UserContext, clock: WriteClock): Row {
  const row: Row = {};
  const kinds = WRITTEN_ON[when];
  for (const column of table.columns) {
    if (column.populate === undefined || !kinds.includes(column.populate)) continue;
    row[column.dbName] = column.populate.endsWith('-by') ? (user.auditKey ?? null) : timestampFor(column, clock);
  }
  return row;
}

/** What a soft delete writes: the `soft-delete` timestamp, `soft-delete-by` who, and any deleted-* populate columns. */
export function softDeleteValues(table: GqlTable, user: UserContext, clock: WriteClock): Row {
  const row = populateValues(table, 'soft-delete', user, clock);
  if (table.softDelete) {
    const column = table.columns.find((candidate) => candidate.dbName === table.softDelete?.column);
    row[table.softDelete.column] = timestampFor(column, clock);
    if (table.softDelete.byColumn) row[table.softDelete.byColumn] = user.auditKey ?? null;
  }
  return row;
}

/** Whether a delete on `table` is a soft delete (an update stamping who and when). */
export function deletesSoftly(table: GqlTable): boolean {
  return table.softDelete !== undefined || table.deleteType === 'soft';
}
