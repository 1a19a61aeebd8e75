import {executeEavWrite, prepareEavWrite} from '../eav/write-attributes.js';
import {recorderFor} from '../events/capture.js';
import {executeWriteWithEvents} from '../events/capture-write.js';
import type {GqlRequestContext, GqlTable} from '../types.js';
import {writeScope, type PreparedWrite, type WriteAction} from './prepare.js';
import {executeWrite, type WriteOutcome} from './row-writes.js';
import {transactionWithDeadline} from '../query/deadline.js';

/**
 * One insert, update, upsert or delete on `table`, as `<t>(insert: …)` and its siblings run it:
 * checked and prepared before any SQL, then written in a transaction of its own (an upsert on
 * MySQL reads the row back; a failure leaves nothing behind). A table with `emit-events` writes
 * its change event to the outbox in the same transaction, an EAV parent its attributes (`_meta`).
 */
export async function mutateRow(ctx: GqlRequestContext, table: GqlTable, action: WriteAction): Promise<WriteOutcome> {
  const scope = writeScope(ctx.model, table, ctx.user);
  const write = prepareEavWrite(scope, action);
  const recorder = recorderFor(scope);
  const outcome = await transactionWithDeadline(ctx, async (trx) => {
    const runner = {trx, statements: ctx.statements};
    const execute = (prepared: PreparedWrite) => (recorder ? executeWriteWithEvents(runner, scope, prepared, recorder) : executeWrite(runner, scope, prepared));
    const result = await executeEavWrite(runner, scope, write, execute);
    if (recorder) await recorder.flush(runner);
    return result;
  });
  if (recorder && recorder.rows.length > 0) ctx.onEvents?.();
  return outcome;
}
