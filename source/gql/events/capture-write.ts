import type {PolicyOperation, Row} from '../types.js';
import type {PreparedWrite, WriteScope} from '../mutate/prepare.js';
import {executeWrite, type WriteOutcome} from '../mutate/row-writes.js';
import type {WriteRunner} from '../mutate/statements.js';
import {eventOpOf, keyText, rowsByKeys, type EventRecorder} from './capture.js';

/** The policy a write runs inside: what its before image is read within (the rows it can change). */
function policyOf(write: PreparedWrite): PolicyOperation {
  return write.op === 'delete' || write.op === 'soft-delete' ? 'delete' : 'update';
}

/**
 * One write of the per-row path with its change event: the row as it was (read and locked inside
 * the write's own policy), the write, the row as it is, and the event recorded for the outbox —
 * all in the caller's transaction. An upsert's before image also says which it was: an update
 * when the row was there. A write that changed nothing records nothing.
 */
export async function executeWriteWithEvents(runner: WriteRunner, scope: WriteScope, write: PreparedWrite, recorder: EventRecorder): Promise<WriteOutcome> {
  const {table} = scope;
  const images = recorder.wantsImages;
  let before: Row | undefined;
  if (write.op !== 'insert' && write.key && (images || write.op === 'upsert')) {
    before = (await rowsByKeys(runner, scope, [write.key], scope.policy(policyOf(write)), true)).get(keyText(table, write.key));
  }
  // An insert's after image comes back with the insert itself where the database can say it: one statement a row, not two.
  const outcome = await executeWrite(runner, scope, write, {returnRow: images && (write.op === 'insert' || (write.op === 'upsert' && !write.key))});
  if (outcome.affected === 0) return outcome;
  const op = eventOpOf(write, before !== undefined);
  if (!recorder.emits(op)) return outcome;
  const key = outcome.key ?? ('key' in write ? write.key : undefined);
  if (!key) return outcome;
  // A hard delete leaves no row to read; everything else is read back as the database now holds it.
  const after = images && write.op !== 'delete' ? (outcome.row ?? (await rowsByKeys(runner, scope, [key], undefined, false)).get(keyText(table, key))) : undefined;
  const forced = 'row' in write ? write.row : scope.policy(policyOf(write)).forcedValues;
  recorder.add(op, key, before, after, forced);
  return outcome;
}
