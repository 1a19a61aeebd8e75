import type {Knex} from 'knex';
import type {Provider, Row, RowPolicy} from '../types.js';
import {policyCondition} from './policy-sql.js';

export interface UpsertSpec {
  /** `schema.table`, and the name its existing row is referred to by in the conflict branch. */
  ref: string;
  alias: string;
  row: Row;
  keyColumns: string[];
  /** What a conflicting (existing) row gets. */
  set: Row;
  /** The update policy: an existing row outside it is left alone. */
  policy: RowPolicy;
}

const list = (count: number, item: string) => Array.from({length: count}, () => item).join(', ');

/**
 * One upsert statement, in each database's own form: `ON CONFLICT … DO UPDATE … WHERE` on
 * PostgreSQL and SQLite, `ON DUPLICATE KEY UPDATE` with each assignment guarded by the policy on
 * MySQL (it has no WHERE there), `MERGE … WHEN MATCHED AND` on SQL Server. An existing row the
 * policy does not reach (another tenant's, a soft-deleted one) is never changed. PostgreSQL,
 * SQLite and SQL Server return the key of the row written; MySQL returns nothing (the caller
 * checks the row afterwards).
 */
export function upsertStatement(db: Knex, provider: Provider, spec: UpsertSpec): Knex.Raw {
  const columns = Object.keys(spec.row);
  const values = columns.map((column) => spec.row[column]);
  // Nothing to change still has to touch the row, so the statement reports it (a key set to itself).
  const setColumns = Object.keys(spec.set).length > 0 ? Object.keys(spec.set) : [spec.keyColumns[0] as string];
  const keys = spec.keyColumns;
  switch (provider) {
    case 'postgres':
    case 'sqlite': {
      const guard = policyCondition(db, spec.policy, spec.alias);
      const assignments = setColumns.map((column) => (column in spec.set ? '?? = ?' : '?? = excluded.??'));
      const assignmentBindings = setColumns.flatMap((column) => (column in spec.set ? [column, spec.set[column]] : [column, column]));
      const sql =
        `insert into ?? (${list(columns.length, '??')}) values (${list(columns.length, '?')}) ` +
        `on conflict (${list(keys.length, '??')}) do update set ${assignments.join(', ')}` +
        (guard ? ` where ${guard.sql}` : '') +
        ` returning ${list(keys.length, '??')}`;
      return db.raw(sql, [spec.ref, ...columns, ...values, ...keys, ...assignmentBindings, ...(guard?.bindings ?? []), ...keys] as Knex.RawBinding[]);
    }
    case 'mysql': {
      const guard = policyCondition(db, spec.policy, spec.alias);
      const assignments = setColumns.map((column) => {
        const value = column in spec.set ? '?' : '??';
        return guard ? `?? = if(${guard.sql}, ${value}, ??)` : `?? = ${value}`;
      });
      const assignmentBindings = setColumns.flatMap((column) => {
        const value = column in spec.set ? spec.set[column] : column;
        return guard ? [column, ...guard.bindings, value, column] : [column, value];
      });
      const sql = `insert into ?? (${list(columns.length, '??')}) values (${list(columns.length, '?')}) on duplicate key update ${assignments.join(', ')}`;
      return db.raw(sql, [spec.ref, ...columns, ...values, ...assignmentBindings] as Knex.RawBinding[]);
    }
    case 'sqlserver': {
      const guard = policyCondition(db, spec.policy, 'wb_target');
      const on = keys.map(() => 'wb_target.?? = wb_source.??').join(' and ');
      const assignments = setColumns.map((column) => (column in spec.set ? 'wb_target.?? = ?' : 'wb_target.?? = wb_source.??'));
      const assignmentBindings = setColumns.flatMap((column) => (column in spec.set ? [column, spec.set[column]] : [column, column]));
      const sql =
        `merge into ?? with (holdlock) as wb_target using (values (${list(columns.length, '?')})) as wb_source (${list(columns.length, '??')}) on ${on} ` +
        `when matched${guard ? ` and ${guard.sql}` : ''} then update set ${assignments.join(', ')} ` +
        `when not matched then insert (${list(columns.length, '??')}) values (${list(columns.length, 'wb_source.??')}) ` +
        `output ${list(keys.length, 'inserted.??')};`;
      return db.raw(sql, [
        spec.ref,
        ...values,
        ...columns,
        ...keys.flatMap((key) => [key, key]),
        ...(guard?.bindings ?? []),
        ...assignmentBindings,
        ...columns,
        ...columns,
        ...keys,
      ] as Knex.RawBinding[]);
    }
  }
}
