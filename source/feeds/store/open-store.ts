import {join} from 'node:path';
import {workbenchHome} from '../../core/paths.js';
import {databaseConfig, type StoreConfig} from '../../storage/connection.js';
import {openDatabase, type Store} from '../../storage/open-database.js';
import {readerMigrations} from './migrations.js';

export type {Store};

/** The SQLite file used when no connection is given. */
export function defaultReaderDatabase(): string {
  return join(workbenchHome(), 'reader.sqlite');
}

/** The reader's connection settings (see databaseConfig): nothing → `<WORKBENCH_HOME>/reader.sqlite`. */
export function storeConfig(connection?: string): StoreConfig {
  return databaseConfig(connection, defaultReaderDatabase());
}

/**
 * Opens (and migrates) the reader's database: no argument → SQLite at
 * `<WORKBENCH_HOME>/reader.sqlite`; `postgres://…` or `mysql://…` → that server.
 */
export function openStore(connection?: string): Promise<Store> {
  return openDatabase({connection, defaultFile: defaultReaderDatabase(), migrations: readerMigrations, migrationsTable: 'reader_migrations', what: 'reader'});
}
