import {WorkbenchError} from '../core/errors.js';
import {driverWords} from './driver-words.js';

// SQLite's words for a file that is not (or no longer) a whole database: cut short, overwritten, not SQLite at all.
const DAMAGED = /^SQLITE_(CORRUPT|NOTADB)/;

/** The error that says a SQLite file is damaged: the error itself, one of its causes, or the error a WorkbenchError carries as details. */
function damagedCause(error: unknown, depth = 0): Error | undefined {
  if (!(error instanceof Error) || depth > 5) return undefined;
  const {code, cause, details} = error as Error & {code?: unknown; details?: unknown};
  if (typeof code === 'string' && DAMAGED.test(code)) return error;
  return damagedCause(cause, depth + 1) ?? damagedCause(details, depth + 1);
}

/** Whether SQLite refused a file as damaged (knex and our own errors wrap the driver's). */
export function isDamagedDatabase(error: unknown): boolean {
  return damagedCause(error) !== undefined;
}

/**
 * A damaged SQLite file, said in one line. Opening fails before anything is written, so the
 * file is left as it was, for the user to restore or inspect.
 */
export function damagedDatabaseError(filename: string, error: unknown): WorkbenchError {
  return new WorkbenchError(
    'database_unavailable',
    `the database file ${filename} is damaged (${driverWords(damagedCause(error) ?? error)}); it was left as it is: restore it from a backup, or move it away to start a new one`,
  );
}
