import type {Knex} from 'knex';
import {WorkbenchError, describeError} from '../../core/errors.js';
import {storeConfig, type Dialect} from './connection.js';
import {loadKnex} from './load-knex.js';
import {readerMigrations} from './migrations.js';

/** An open reader database, migrated to the latest schema. */
export interface Store {
  db: Knex;
  dialect: Dialect;
  location: string;
  close(): Promise<void>;
}

/**
 * Opens (and migrates) the reader's database: no argument → SQLite at
 * `<WORKBENCH_HOME>/reader.sqlite`; `postgres://…` or `mysql://…` → that server.
 */
export async function openStore(connection?: string): Promise<Store> {
  const config = storeConfig(connection);
  const knex = await loadKnex();
  const db = knex(config.knex);
  try {
    await db.migrate.latest({migrationSource: readerMigrations(config.dialect), tableName: 'reader_migrations'});
  } catch (error) {
    await db.destroy().catch(() => {});
    throw new WorkbenchError('config_invalid', `cannot open the reader database at ${config.location}: ${describeError(error)}`);
  }
  let closed = false;
  return {
    db,
    dialect: config.dialect,
    location: config.location,
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
    },
  };
}
