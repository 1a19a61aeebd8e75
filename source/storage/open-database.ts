import type {Knex} from 'knex';
import {WorkbenchError, describeError, environmentFault} from '../core/errors.js';
import {databaseConfig, type Dialect} from './connection.js';
import {damagedDatabaseError, isDamagedDatabase} from './damaged.js';
import {knexLog} from './knex-log.js';
import {loadKnex} from './load-knex.js';
import {openChangeCounter, type ChangeCounter} from './change-counter.js';

/** An open database, migrated to the latest schema of the server that opened it. */
export interface Store {
  db: Knex;
  dialect: Dialect;
  location: string;
  /**
   * On a SQLite file: a number that moves whenever anything committed to the database since it was
   * last read (see change-counter.ts), so a cache can keep an answer exactly as long as it holds.
   * Undefined where no such signal exists (PostgreSQL, MySQL, `:memory:`).
   */
  changeCount?: () => number;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions<M> {
  /** SQLite path or postgres:// / mysql:// URL; nothing: `defaultFile`. */
  connection?: string;
  /** The server's own SQLite file under WORKBENCH_HOME (`reader.sqlite`, `gateway.sqlite`). */
  defaultFile: string;
  /** Its migrations, for the dialect the connection turned out to be. */
  migrations: (dialect: Dialect) => Knex.MigrationSource<M>;
  /** Its own migrations table, so two servers can share one database. */
  migrationsTable: string;
  /** What the database is, for errors: `reader`, `gateway`. */
  what: string;
}

/** Opens a server's database through knex (SQLite by default, PostgreSQL or MySQL/MariaDB by URL) and migrates it. */
export async function openDatabase<M>(options: OpenDatabaseOptions<M>): Promise<Store> {
  const config = databaseConfig(options.connection, options.defaultFile, options.what);
  const knex = await loadKnex();
  const db = knex({...config.knex, log: knexLog});
  try {
    await db.migrate.latest({migrationSource: options.migrations(config.dialect), tableName: options.migrationsTable});
  } catch (error) {
    await db.destroy().catch(() => {});
    if (config.dialect === 'sqlite' && isDamagedDatabase(error)) throw damagedDatabaseError(config.location, error);
    throw new WorkbenchError(environmentFault(error) ?? 'config_invalid', `cannot open the ${options.what} database at ${config.location}: ${describeError(error)}`);
  }
  // Opened after the migration, so the file exists and holds the schema.
  let counter: ChangeCounter | undefined;
  if (config.dialect === 'sqlite' && config.location !== ':memory:') {
    try {
      counter = openChangeCounter(config.location);
    } catch {
      // Without it caches just do not cache.
    }
  }
  let closed = false;
  return {
    db,
    dialect: config.dialect,
    location: config.location,
    changeCount: counter && (() => counter.read()),
    async close() {
      if (closed) return;
      closed = true;
      counter?.close();
      await db.destroy();
    },
  };
}
