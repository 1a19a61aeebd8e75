import {recorderFor} from '../events/capture.js';
import {executeWriteWithEvents} from '../events/capture-write.js';
import type {GqlRequestContext, GqlTable} from '../types.js';
import {prepareWrite, writeScope, type WriteAction} from './prepare.js';
import {executeWrite, type WriteOutcome} from './row-writes.js';

/**
 * One insert, update, upsert or delete on `table`, as `<t>(insert: …)` and its siblings run it:
 * checked and prepared before any SQL, then written in a transaction of its own (an upsert on
 * MySQL reads the row back; a failure leaves nothing behind). A table with `emit-events` writes
 * its change event to the outbox in the same transaction.
 */
export async function mutateRow(ctx: GqlRequestContext, table: GqlTable, action: WriteAction): Promise<WriteOutcome> {
  const scope = writeScope(ctx.model, table, ctx.user);
  const write = prepareWrite(scope, action);
  const recorder = recorderFor(scope);
  const outcome = await ctx.db.transaction(async (trx) => {
    const runner = {trx, statements: ctx.statements};
    if (!recorder) return executeWrite(runner, scope, write);
    const result = await executeWriteWithEvents(runner, scope, write, recorder);
    await recorder.flush(runner);
    return result;
  });
  if (recorder && recorder.rows.length > 0) ctx.onEvents?.();
  return outcome;
}
