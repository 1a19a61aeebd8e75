import type {GqlTable} from '../types.js';
import {keyColumns} from './columns.js';
import type {WriteOp} from './prepare.js';
import type {WriteOutcome} from './row-writes.js';

/**
 * The scalar a table's mutation field answers with: `Int` for a single int key (the upstream's
 * usual case), `String` for every other key: a bigint, decimal, text, uuid or date key as its
 * text, a composite key as JSON text of `{column: value}` (GraphQL names). Delete answers the
 * count of rows deleted in the same scalar.
 */
export function resultKind(table: GqlTable): 'Int' | 'String' {
  const keys = keyColumns(table);
  return keys.length === 1 && keys[0]?.kind === 'int' ? 'Int' : 'String';
}

/** What `<t>(insert|update|upsert|delete: …)` returns: the key written (null when no row was), or the delete count. */
export function resultValue(table: GqlTable, op: WriteOp, outcome: WriteOutcome): number | string | null {
  const kind = resultKind(table);
  if (op === 'delete') return kind === 'Int' ? outcome.affected : String(outcome.affected);
  if (!outcome.key) return null;
  const keys = keyColumns(table);
  if (keys.length === 1) {
    const value = outcome.key[(keys[0] as {dbName: string}).dbName];
    if (value === undefined || value === null) return null;
    return kind === 'Int' ? Number(value) : String(value);
  }
  return JSON.stringify(Object.fromEntries(keys.map((column) => [column.name, outcome.key?.[column.dbName] ?? null])));
}
