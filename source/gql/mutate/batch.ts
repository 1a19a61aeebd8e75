import {WorkbenchError} from '../../core/errors.js';
import {dialectOf} from '../dialect/dialect-of.js';
import {executeEavWrite, prepareEavWrite} from '../eav/write-attributes.js';
import {recorderFor} from '../events/capture.js';
import {executeWriteWithEvents} from '../events/capture-write.js';
import type {GqlRequestContext, GqlTable} from '../types.js';
import {collapseBatch} from './batch-collapse.js';
import {executeSetBased} from './bulk-writes.js';
import {writeScope, type PreparedWrite, type WriteAction} from './prepare.js';
import {executeWrite} from './row-writes.js';
import {transactionWithDeadline} from '../query/deadline.js';

export interface BatchOutcome {
  /** Rows inserted, updated and deleted: the `<t>_batch` field's answer. */
  affected: number;
  /** Which path ran (the debug SQL shows it too). */
  path: 'per-row' | 'set-based';
  /** The actions left after duplicates were resolved. */
  executed: number;
}

/**
 * A batch of writes on one table, all or nothing in one transaction. Duplicate keys are
 * resolved first (`batch-duplicate-policy`), every action is checked and prepared next (a bad
 * one refuses the batch before any SQL), then the batch runs per row, or set-based when the
 * database has that path and the batch reaches `bulk-batch-threshold` and holds no upsert.
 */
export async function runBatch(ctx: GqlRequestContext, table: GqlTable, actions: WriteAction[]): Promise<BatchOutcome> {
  if (table.batchMaxSize !== undefined && actions.length > table.batchMaxSize) {
    throw new WorkbenchError('invalid_argument', `batch on ${table.name} has ${actions.length} actions, over its batch-max-size of ${table.batchMaxSize}; nothing was written`);
  }
  const collapsed = collapseBatch(table, actions);
  const scope = writeScope(ctx.model, table, ctx.user);
  const writes = collapsed.map((action) => prepareEavWrite(scope, action));
  if (writes.length === 0) return {affected: 0, path: 'per-row', executed: 0};

  const threshold = table.bulkBatchThreshold;
  // The database's set-based path (none on SQLite: one in-process writer has no round trips to
  // save); one that cannot capture inserted rows (SQL Server: no RETURNING) goes per row with events.
  const dialect = dialectOf(ctx.model.provider);
  const capturable = !table.events || dialect.setBasedBatchesCaptureEvents;
  // An EAV parent's writes carry their attributes (and a hard delete removes them first): per row.
  const setBased = dialect.setBasedBatches && capturable && !table.eav && threshold > 0 && actions.length >= threshold && !writes.some((item) => item.write?.op === 'upsert');
  // A table with emit-events writes its events in the same transaction, on either path.
  const recorder = recorderFor(scope);
  const affected = await transactionWithDeadline(ctx, async (trx) => {
    const runner = {trx, statements: ctx.statements};
    let total = 0;
    const execute = (write: PreparedWrite) => (recorder ? executeWriteWithEvents(runner, scope, write, recorder) : executeWrite(runner, scope, write));
    if (setBased)
      total = await executeSetBased(
        runner,
        scope,
        writes.flatMap((item) => (item.write ? [item.write] : [])),
        recorder,
      );
    else for (const item of writes) total += (await executeEavWrite(runner, scope, item, execute)).affected;
    if (recorder) await recorder.flush(runner);
    return total;
  });
  if (recorder && recorder.rows.length > 0) ctx.onEvents?.();
  return {affected, path: setBased ? 'set-based' : 'per-row', executed: writes.length};
}
