import {WorkbenchError} from '../../core/errors.js';
import {withoutKey, requireKey} from '../mutate/columns.js';
import {populateValues} from '../mutate/populate.js';
import {prepareWrite, type PreparedWrite, type WriteAction, type WriteScope} from '../mutate/prepare.js';
import type {WriteOutcome} from '../mutate/row-writes.js';
import {runStatement, type WriteRunner} from '../mutate/statements.js';
import {withForcedValues, writePolicy} from '../mutate/write-policy.js';
import {applyRowPolicy} from '../policy/row-policy.js';
import type {GqlTable, Row} from '../types.js';
import {EAV_MAP_FIELD} from './fields.js';
import {checkedValue} from './values.js';

/** One write of a parent with its attributes: the row's own write, and the attributes to set (null: remove). */
export interface EavWrite {
  /** The parent row's write; absent for an update that sets attributes only. */
  write?: PreparedWrite;
  /** The row an attributes-only update addresses (database names). */
  key?: Row;
  attributes?: Array<[name: string, value: unknown]>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `_meta: {<attribute>: value | null}` checked: an object, names non-empty, values of the value column's scalar. */
function checkedAttributes(table: GqlTable, given: unknown): EavWrite['attributes'] {
  if (given === undefined || given === null) return undefined;
  const kind = table.eav!.valueKind;
  if (!isRecord(given))
    throw new WorkbenchError('invalid_argument', `${EAV_MAP_FIELD} on ${table.name} takes an object of attribute → value (null removes one), not ${JSON.stringify(given)}`);
  return Object.entries(given).map(([name, value]): [string, unknown] => {
    if (name.trim() === '') throw new WorkbenchError('invalid_argument', `${EAV_MAP_FIELD} on ${table.name}: an attribute name cannot be empty`);
    return [name, value === null ? null : checkedValue(kind, value, `${EAV_MAP_FIELD}.${name} on ${table.name} (null removes it)`)];
  });
}

/**
 * Prepares one action on a table, its `_meta` attributes taken out and checked before any SQL (a
 * table without EAV, and every delete, go to prepareWrite unchanged). An update that sets
 * attributes only has no row write: it addresses its row by key, inside the update policy.
 */
export function prepareEavWrite(scope: WriteScope, action: WriteAction): EavWrite {
  const {table} = scope;
  if (!table.eav || action.op === 'delete' || !(EAV_MAP_FIELD in action.values)) return {write: prepareWrite(scope, action)};
  const {[EAV_MAP_FIELD]: given, ...values} = action.values;
  const attributes = checkedAttributes(table, given);
  const rest: WriteAction = {...action, values};
  const setsColumns = Object.values(withoutKey(table, values)).some((value) => value !== undefined);
  if (attributes && action.op === 'update' && !setsColumns) {
    const key = requireKey(table, values, 'update');
    scope.policy('update'); // a user who may not update the table at all is refused here, as prepareWrite would
    // A change of attributes is a change of the row: its updated-by/updated-on stamps are written when it has them.
    const stamps = populateValues(table, 'update', scope.user, scope.clock);
    return Object.keys(stamps).length > 0 ? {write: {op: 'update', key, set: stamps}, attributes} : {key, attributes};
  }
  return {write: prepareWrite(scope, rest), ...(attributes ? {attributes} : {})};
}

/** The meta table of the scope's parent, as writes name it, and the user's policy of `op` on it. */
function metaOf(scope: WriteScope) {
  const eav = scope.table.eav!;
  const meta = scope.model.byKey.get(eav.table);
  if (!meta) throw new WorkbenchError('internal', `${scope.table.name}: its EAV meta table ${eav.table} is not in the model`);
  return {eav, meta, ref: `${meta.schema}.${meta.dbName}`, alias: meta.dbName, policy: (op: 'insert' | 'delete') => writePolicy(scope.model, meta, scope.user, op)};
}

/** The parent row of `key` when the user may update it (attributes-only updates reach only rows an update could). */
async function reachable(runner: WriteRunner, scope: WriteScope, key: Row): Promise<WriteOutcome> {
  const {trx} = runner;
  const query = trx(scope.ref).first(trx.raw('1 as found'));
  for (const [column, value] of Object.entries(key)) query.where(`${scope.alias}.${column}`, value as never);
  query.where((qb) => applyRowPolicy(qb, scope.policy('update'), scope.alias));
  return (await runStatement<Row | undefined>(runner, query)) ? {affected: 1, key} : {affected: 0};
}

/**
 * Hard-deleting a parent deletes its attributes first, in the same transaction — only when the
 * parent itself is one the user may delete (the same policy, as an EXISTS), so a foreign key
 * without ON DELETE CASCADE does not refuse the delete and no orphan rows are left. A soft delete
 * keeps them: the parent is invisible, so are they, and they come back with it.
 */
async function removeAll(runner: WriteRunner, scope: WriteScope, key: Row): Promise<void> {
  const {trx} = runner;
  const {eav, ref, alias, policy} = metaOf(scope);
  const parentKey = key[scope.table.primaryKey[0]!];
  const parent = trx
    .select(trx.raw('1'))
    .from(scope.ref)
    .where(`${scope.alias}.${scope.table.primaryKey[0]}`, parentKey as never);
  parent.where((qb) => applyRowPolicy(qb, scope.policy('delete'), scope.alias));
  const query = trx(ref)
    .where(`${alias}.${eav.fk}`, parentKey as never)
    .whereExists(parent);
  query.where((qb) => applyRowPolicy(qb, policy('delete'), alias));
  await runStatement(runner, query.del());
}

/** Sets the attributes of one parent row: the named ones are deleted, those with a value inserted anew (two statements). */
async function setAttributes(runner: WriteRunner, scope: WriteScope, key: Row, attributes: NonNullable<EavWrite['attributes']>): Promise<void> {
  if (attributes.length === 0) return;
  const {trx} = runner;
  const {eav, meta, ref, alias, policy} = metaOf(scope);
  const parentKey = key[scope.table.primaryKey[0]!];
  const names = attributes.map(([name]) => name);
  const removal = trx(ref)
    .where(`${alias}.${eav.fk}`, parentKey as never)
    .whereIn(`${alias}.${eav.key}`, names)
    .where((qb) => applyRowPolicy(qb, policy('delete'), alias));
  await runStatement(runner, removal.del());
  const insertPolicy = policy('insert');
  const rows = attributes
    .filter(([, value]) => value !== null)
    .map(([name, value]) => withForcedValues(meta, {[eav.fk]: parentKey, [eav.key]: name, [eav.value]: value}, insertPolicy));
  if (rows.length > 0) await runStatement(runner, trx(ref).insert(rows));
}

/**
 * Runs one prepared parent write with its attributes in the runner's transaction: a hard delete
 * removes the attributes first, the row's write runs through `execute` (with or without change
 * events), then the attributes are set on the row written — only when the write reached a row
 * the user may write (a tenant's update of another tenant's row changes nothing, attributes included).
 */
export async function executeEavWrite(runner: WriteRunner, scope: WriteScope, item: EavWrite, execute: (write: PreparedWrite) => Promise<WriteOutcome>): Promise<WriteOutcome> {
  if (!scope.table.eav) return execute(item.write!);
  if (item.write?.op === 'delete') await removeAll(runner, scope, item.write.key);
  const outcome = item.write ? await execute(item.write) : await reachable(runner, scope, item.key!);
  const key = outcome.key ?? (item.write && 'key' in item.write ? item.write.key : undefined);
  if (item.attributes && outcome.affected > 0 && key) await setAttributes(runner, scope, key, item.attributes);
  return outcome;
}
