import {WorkbenchError} from '../../core/errors.js';
import type {GqlModel, GqlTable, PolicyOperation, Row, RowPolicy, UserContext} from '../types.js';
import {keyColumns, requireKey, toDbValues, withoutKey} from './columns.js';
import {deletesSoftly, populateValues, softDeleteValues, type WriteClock} from './populate.js';
import {checkedSet, withForcedValues, writePolicy} from './write-policy.js';

export type WriteOp = 'insert' | 'update' | 'upsert' | 'delete';

/** One write as a client asked for it: values by GraphQL field name. */
export interface WriteAction {
  op: WriteOp;
  values: Row;
  /** An insert a later delete of the same batch soft-deleted: written with the soft-delete stamp. */
  softDeleted?: boolean;
}

/** One write ready for SQL: database column names, audit and forced values in, checked against the policy. */
export type PreparedWrite =
  | {op: 'insert'; row: Row; key?: Row}
  | {op: 'update'; key: Row; set: Row}
  | {op: 'delete'; key: Row}
  | {op: 'soft-delete'; key: Row; set: Row}
  | {op: 'upsert'; row: Row; key?: Row; set: Row};

/** Everything the writes of one request on one table share: who, when, and the row policy per operation. */
export interface WriteScope {
  model: GqlModel;
  table: GqlTable;
  user: UserContext;
  clock: WriteClock;
  /** Table reference for knex (`schema.table`), and the name its columns are qualified with. */
  ref: string;
  alias: string;
  policy(op: PolicyOperation): RowPolicy;
}

export function writeScope(model: GqlModel, table: GqlTable, user: UserContext, now = new Date()): WriteScope {
  if (table.primaryKey.length === 0) throw new WorkbenchError('invalid_argument', `${table.name} has no primary key: it cannot be written through GraphQL`);
  const policies = new Map<PolicyOperation, RowPolicy>();
  return {
    model,
    table,
    user,
    clock: {now, provider: model.provider},
    ref: `${table.schema}.${table.dbName}`,
    alias: table.dbName,
    policy(op) {
      let policy = policies.get(op);
      if (!policy) policies.set(op, (policy = writePolicy(model, table, user, op)));
      return policy;
    },
  };
}

/** The key of a database row when it holds every key column. */
export function keyFromRow(table: GqlTable, row: Row): Row | undefined {
  const key: Row = {};
  for (const column of table.primaryKey) {
    if (row[column] === undefined || row[column] === null) return undefined;
    key[column] = row[column];
  }
  return key;
}

function insertRow(scope: WriteScope, values: Row, role: 'insert' | 'upsert', softDeleted: boolean): Row {
  const {table, user, clock} = scope;
  let row = {...toDbValues(table, values, role), ...populateValues(table, 'insert', user, clock)};
  if (softDeleted) row = {...row, ...softDeleteValues(table, user, clock)};
  return withForcedValues(table, row, scope.policy('insert'));
}

/** Checks one action against the model and the policy and turns it into the SQL-ready write. */
export function prepareWrite(scope: WriteScope, action: WriteAction): PreparedWrite {
  const {table, user, clock} = scope;
  switch (action.op) {
    case 'insert': {
      const row = insertRow(scope, action.values, 'insert', action.softDeleted === true);
      const key = keyFromRow(table, row);
      return key ? {op: 'insert', row, key} : {op: 'insert', row};
    }
    case 'update': {
      const key = requireKey(table, action.values, 'update');
      const set = toDbValues(table, withoutKey(table, action.values), 'update-set');
      if (Object.keys(set).length === 0) throw new WorkbenchError('invalid_argument', `update on ${table.name} sets no column`);
      return {op: 'update', key, set: {...checkedSet(table, set, scope.policy('update')), ...populateValues(table, 'update', user, clock)}};
    }
    case 'delete': {
      const key = requireKey(table, action.values, 'delete');
      const extra = Object.keys(withoutKey(table, action.values)).filter((name) => action.values[name] !== undefined);
      if (extra.length > 0)
        throw new WorkbenchError(
          'invalid_argument',
          `delete on ${table.name} takes its key only (${keyColumns(table)
            .map((column) => column.name)
            .join(', ')}), not ${extra.join(', ')}`,
        );
      if (!deletesSoftly(table)) return {op: 'delete', key};
      const set = softDeleteValues(table, user, clock);
      if (Object.keys(set).length === 0) throw new WorkbenchError('config_invalid', `${table.name} deletes softly (delete-type: soft) but names no soft-delete column`);
      return {op: 'soft-delete', key, set};
    }
    case 'upsert': {
      const row = insertRow(scope, action.values, 'upsert', false);
      const key = keyFromRow(table, row);
      // The update half: what the client sent, less the key, the columns only an insert may set and the pinned ones.
      const changed: Row = {};
      for (const column of table.columns) {
        if (column.isPrimaryKey || column.readOnly || !(column.name in action.values) || action.values[column.name] === undefined) continue;
        changed[column.dbName] = row[column.dbName];
      }
      const set = {...checkedSet(table, changed, scope.policy('update')), ...populateValues(table, 'update', user, clock)};
      return key ? {op: 'upsert', row, key, set} : {op: 'upsert', row, set};
    }
  }
}
