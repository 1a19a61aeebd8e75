import {closeSync, fchmodSync, fstatSync, openSync} from 'node:fs';
import {dirname} from 'node:path';
import {WorkbenchError} from '../core/errors.js';
import {fsFault, fsReason} from '../core/fs-reason.js';
import {ensureDirectory} from '../core/paths.js';

export interface PrepareSqliteFileOptions {
  /** Tighten an existing file to 0600: workbench's own store under WORKBENCH_HOME (a file the user named is theirs). */
  tighten: boolean;
  /** What the database is, for errors: `reader`, `gateway`, `GraphQL`. */
  what: string;
}

/**
 * The folder (0700, with its missing parents: a new user's WORKBENCH_HOME) and the file (0600)
 * made before SQLite opens it: SQLite would create the file with the umask's 0644, and gives its
 * -wal and -shm files the database file's mode. A folder or file that cannot be made or written
 * (read-only file system, a file where the folder should be) is one clear error here, before
 * SQLite or knex could say it with a stack.
 */
export function prepareSqliteFile(filename: string, options: PrepareSqliteFileOptions): void {
  ensureDirectory(dirname(filename));
  let fd: number;
  try {
    fd = openSync(filename, 'a', 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EISDIR') throw new WorkbenchError('invalid_argument', `${filename} is a folder, not a SQLite file`);
    throw new WorkbenchError(fsFault(error) ?? 'database_unavailable', `cannot open the ${options.what} database at ${filename}: ${fsReason(error)}`);
  }
  try {
    if (options.tighten && (fstatSync(fd).mode & 0o077) !== 0) fchmodSync(fd, 0o600);
  } finally {
    closeSync(fd);
  }
}
