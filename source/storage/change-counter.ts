import {createRequire} from 'node:module';

/** Tells whether a SQLite database changed since the last look, for caches that must never serve stale answers. */
export interface ChangeCounter {
  /** A number that differs from the last one read whenever any connection (this process's or another's) committed in between. */
  read(): number;
  close(): void;
}

interface DataVersionConnection {
  prepare(sql: string): {pluck(): {get(): unknown}};
  close(): void;
}

/**
 * SQLite's `PRAGMA data_version` on a connection of its own: it moves whenever another connection
 * commits, and every writer (knex's connection, another process) is another connection. Reading
 * it is a few microseconds, where re-running a query over a large store is milliseconds.
 */
export function openChangeCounter(filename: string): ChangeCounter {
  // better-sqlite3 stays outside the bundle (a native addon knex loads by name), so it is required here too.
  const Database = createRequire(import.meta.url)('better-sqlite3') as new (file: string, options: {readonly: boolean; fileMustExist: boolean}) => DataVersionConnection;
  const connection = new Database(filename, {readonly: true, fileMustExist: true});
  const dataVersion = connection.prepare('pragma data_version').pluck();
  return {
    read: () => Number(dataVersion.get()),
    close: () => connection.close(),
  };
}
