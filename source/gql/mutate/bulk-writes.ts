import {randomBytes} from 'node:crypto';
import type {Knex} from 'knex';
import {WorkbenchError} from '../../core/errors.js';
import {dialectOf} from '../dialect/dialect-of.js';
import {keyOf, rowsByKeys, type EventRecorder} from '../events/capture.js';
import {applyRowPolicy} from '../policy/row-policy.js';
import type {Row} from '../types.js';
import {policyCondition} from './policy-sql.js';
import type {PreparedWrite, WriteScope} from './prepare.js';
import {runStatement, type WriteRunner} from './statements.js';

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let at = 0; at < items.length; at += size) out.push(items.slice(at, at + size));
  return out;
}

function rowsPerStatement(scope: WriteScope, columns: number): number {
  return Math.max(1, Math.floor(dialectOf(scope.model.provider).maxBindings / Math.max(1, columns)));
}

/** The driver's affected-row count of a raw statement. */
function affectedOf(scope: WriteScope, result: unknown): number {
  return dialectOf(scope.model.provider).affectedRows(result);
}

/** Rows matching any of `keys` (within the policy of `op`), as a knex condition. */
function whereKeys(qb: Knex.QueryBuilder, scope: WriteScope, keys: Row[]): Knex.QueryBuilder {
  const columns = scope.table.primaryKey;
  if (columns.length === 1) {
    const column = columns[0] as string;
    return qb.whereIn(`${scope.alias}.${column}`, keys.map((key) => key[column]) as Knex.Value[]);
  }
  return qb.whereIn(
    columns.map((column) => `${scope.alias}.${column}`),
    keys.map((key) => columns.map((column) => key[column])) as Knex.Value[][],
  );
}

async function deleteByKeys(runner: WriteRunner, scope: WriteScope, keys: Row[], recorder?: EventRecorder): Promise<number> {
  // The rows the delete will remove, read and locked inside its policy first: their before images.
  const before = recorder?.emits('delete') ? await rowsByKeys(runner, scope, keys, scope.policy('delete'), true) : undefined;
  let affected = 0;
  for (const part of chunks(keys, rowsPerStatement(scope, scope.table.primaryKey.length))) {
    const query = whereKeys(runner.trx(scope.ref), scope, part)
      .where((qb) => applyRowPolicy(qb, scope.policy('delete'), scope.alias))
      .del();
    affected += await runStatement<number>(runner, query);
  }
  for (const row of before?.values() ?? []) recorder?.add('delete', keyOf(scope.table, row), recorder.wantsImages ? row : undefined, undefined, row);
  return affected;
}

/** Soft deletes of one batch share their stamp (one clock, one user): one update per chunk of keys. */
async function softDeleteByKeys(runner: WriteRunner, scope: WriteScope, keys: Row[], set: Row, recorder?: EventRecorder): Promise<number> {
  const before = recorder?.emits('delete') ? await rowsByKeys(runner, scope, keys, scope.policy('delete'), true) : undefined;
  let affected = 0;
  for (const part of chunks(keys, rowsPerStatement(scope, scope.table.primaryKey.length + Object.keys(set).length))) {
    const query = whereKeys(runner.trx(scope.ref), scope, part)
      .where((qb) => applyRowPolicy(qb, scope.policy('delete'), scope.alias))
      .update(set);
    affected += await runStatement<number>(runner, query);
  }
  if (before && recorder) await recordAfter(runner, scope, recorder, 'delete', before);
  return affected;
}

/** Records one event per row of `before` (the rows the statement changed), with the row as it is now. */
async function recordAfter(runner: WriteRunner, scope: WriteScope, recorder: EventRecorder, op: 'update' | 'delete', before: Map<string, Row>): Promise<void> {
  const keys = [...before.values()].map((row) => keyOf(scope.table, row));
  const after = recorder.wantsImages ? await rowsByKeys(runner, scope, keys, undefined, false) : undefined;
  for (const [text, row] of before) recorder.add(op, keyOf(scope.table, row), recorder.wantsImages ? row : undefined, after?.get(text), row);
}

/**
 * Updates setting the same columns, applied with one set-based statement: the new values are
 * staged in a temporary table shaped like the target's columns (so every value keeps its
 * column's type), then one UPDATE joins it on the key, inside the update policy.
 */
async function updateStaged(runner: WriteRunner, scope: WriteScope, writes: Array<{key: Row; set: Row}>, setColumns: string[], recorder?: EventRecorder): Promise<number> {
  const {trx} = runner;
  const before = recorder?.emits('update')
    ? await rowsByKeys(
        runner,
        scope,
        writes.map((write) => write.key),
        scope.policy('update'),
        true,
      )
    : undefined;
  const dialect = dialectOf(scope.model.provider);
  const keys = scope.table.primaryKey;
  const columns = [...keys, ...setColumns];
  const stage = dialect.stagingTable(randomBytes(6).toString('hex'));
  await runStatement(runner, dialect.createStagingTable(trx, stage, columns, scope.ref));

  const stagedRows = writes.map((write) => ({...write.key, ...write.set}));
  for (const part of chunks(stagedRows, rowsPerStatement(scope, columns.length))) await runStatement(runner, trx(stage).insert(part));
  const prepared = dialect.afterStaging(trx, stage);
  if (prepared) await runStatement(runner, prepared);

  const guard = policyCondition(trx, scope.policy('update'), scope.alias);
  const update = dialect.updateFromStaging(trx, {ref: scope.ref, alias: scope.alias, stage, keys, setColumns, ...(guard ? {guard} : {})});
  const affected = affectedOf(scope, await runStatement(runner, update));
  const drop = dialect.dropStagingTable(trx, stage);
  if (drop) await runStatement(runner, drop);
  if (before && recorder) await recordAfter(runner, scope, recorder, 'update', before);
  return affected;
}

/**
 * Multi-row inserts that hand back every inserted row (PostgreSQL's RETURNING *, MariaDB's
 * INSERT … RETURNING since 10.5): the after images of their events, identity values included.
 */
async function insertReturning(runner: WriteRunner, scope: WriteScope, part: Row[], recorder: EventRecorder): Promise<void> {
  const insert = dialectOf(scope.model.provider).insertReturningAll(runner.trx, runner.trx(scope.ref).insert(part));
  const rows = insert.rows(await runStatement<unknown>(runner, insert.statement));
  for (const row of rows) recorder.add('insert', keyOf(scope.table, row), undefined, recorder.wantsImages ? row : undefined, row);
}

async function insertRows(runner: WriteRunner, scope: WriteScope, rows: Row[], recorder?: EventRecorder): Promise<number> {
  // Rows naming the same columns go together, so no row gets a DEFAULT it did not ask for spelt out differently.
  const byShape = new Map<string, Row[]>();
  for (const row of rows) {
    const shape = Object.keys(row).sort().join('\u0000');
    byShape.set(shape, [...(byShape.get(shape) ?? []), row]);
  }
  for (const group of byShape.values()) {
    const width = Object.keys(group[0] ?? {}).length;
    for (const part of chunks(group, rowsPerStatement(scope, width))) {
      if (recorder?.emits('insert')) await insertReturning(runner, scope, part, recorder);
      else await runStatement(runner, runner.trx(scope.ref).insert(part));
    }
  }
  return rows.length;
}

/**
 * The set-based path of a batch (PostgreSQL, MySQL, SQL Server at `bulk-batch-threshold`):
 * deletes by key list, soft deletes as one stamped update, updates staged and joined, inserts as
 * multi-row VALUES, in that order, in the caller's transaction. The batch was collapsed before,
 * so no key is touched twice except a row replaced (delete, then insert), which this order
 * keeps. Upserts never come here (their existence probe is per row).
 *
 * With a recorder (the table emits events) each statement's rows are captured set-wise too: the
 * rows an update or delete will change read and locked first (their before images), read again
 * after (their after images); inserts hand back their rows with RETURNING. The events are the
 * recorder's to write in the same transaction.
 */
export async function executeSetBased(runner: WriteRunner, scope: WriteScope, writes: PreparedWrite[], recorder?: EventRecorder): Promise<number> {
  const deletes: Row[] = [];
  const softDeletes = new Map<string, {set: Row; keys: Row[]}>();
  const updates = new Map<string, {columns: string[]; writes: Array<{key: Row; set: Row}>}>();
  const inserts: Row[] = [];
  for (const write of writes) {
    switch (write.op) {
      case 'delete':
        deletes.push(write.key);
        break;
      case 'soft-delete': {
        const stamp = JSON.stringify(write.set);
        const group = softDeletes.get(stamp) ?? {set: write.set, keys: []};
        group.keys.push(write.key);
        softDeletes.set(stamp, group);
        break;
      }
      case 'update': {
        const columns = Object.keys(write.set).sort();
        const shape = columns.join('\u0000');
        const group = updates.get(shape) ?? {columns, writes: []};
        group.writes.push(write);
        updates.set(shape, group);
        break;
      }
      case 'insert':
        inserts.push(write.row);
        break;
      case 'upsert':
        throw new WorkbenchError('internal', 'an upsert reached the set-based batch path');
    }
  }
  let affected = 0;
  if (deletes.length > 0) affected += await deleteByKeys(runner, scope, deletes, recorder);
  for (const group of softDeletes.values()) affected += await softDeleteByKeys(runner, scope, group.keys, group.set, recorder);
  for (const group of updates.values()) affected += await updateStaged(runner, scope, group.writes, group.columns, recorder);
  if (inserts.length > 0) affected += await insertRows(runner, scope, inserts, recorder);
  return affected;
}
