import type {GqlRequestContext, GqlTable} from '../types.js';
import {prepareWrite, writeScope, type WriteAction} from './prepare.js';
import {executeWrite, type WriteOutcome} from './row-writes.js';

/**
 * One insert, update, upsert or delete on `table`, as `<t>(insert: …)` and its siblings run it:
 * checked and prepared before any SQL, then written in a transaction of its own (an upsert on
 * MySQL reads the row back; a failure leaves nothing behind).
 */
export async function mutateRow(ctx: GqlRequestContext, table: GqlTable, action: WriteAction): Promise<WriteOutcome> {
  const scope = writeScope(ctx.model, table, ctx.user);
  const write = prepareWrite(scope, action);
  return ctx.db.transaction((trx) => executeWrite({trx, statements: ctx.statements}, scope, write));
}
