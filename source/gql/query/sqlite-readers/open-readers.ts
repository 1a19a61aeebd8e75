import type {Knex} from 'knex';
import {SqliteReaderPool} from './reader-pool.js';

/** Reader processes a service on a SQLite file runs its reads in, unless told otherwise. */
export const DEFAULT_SQLITE_READERS = 4;

/**
 * The reader pool of a SQLite file, its journal switched to WAL first: in WAL a reader's long
 * statement and the service's writes go on side by side (in the rollback journal a writer waits —
 * on the service's thread, better-sqlite3 being synchronous — until every reader is done). WAL
 * is a property of the file and stays with it. A file that cannot take WAL (another process
 * holds it in a mode it cannot leave, a read-only folder) keeps its reads on the service's
 * connection, said once in `log`, as does a file the first reader process cannot open (it is
 * started here, before the service answers). `size` 0: no pool.
 */
export async function openSqliteReaders(db: Knex, file: string, size: number, log?: (line: string) => void): Promise<SqliteReaderPool | undefined> {
  if (size <= 0) return undefined;
  let mode: unknown;
  try {
    const rows = (await db.raw('pragma journal_mode = wal')) as Array<{journal_mode?: unknown}>;
    mode = rows[0]?.journal_mode;
  } catch (error) {
    mode = (error as Error).message;
  }
  if (mode !== 'wal') {
    log?.(`graphql: ${file} cannot use SQLite's WAL journal (${String(mode)}): its queries run on the server's thread, one at a time, with no statement-timeout`);
    return undefined;
  }
  const pool = new SqliteReaderPool(file, size);
  try {
    await pool.prestart();
  } catch (error) {
    await pool.close();
    log?.(`graphql: ${file} cannot be read by a reader process (${(error as Error).message}): its queries run on the server's thread, one at a time, with no statement-timeout`);
    return undefined;
  }
  return pool;
}
