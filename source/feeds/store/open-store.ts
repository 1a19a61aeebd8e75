import type {Knex} from 'knex';
import {WorkbenchError, describeError, environmentFault} from '../../core/errors.js';
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
 * knex's logger writes to stdout with console.log (an unreachable server prints "Acquire
 * connection error" and a stack), which would break `--json` output and the MCP protocol. Its
 * errors reach us as rejections anyway; with WORKBENCH_DEBUG set its notes go to stderr.
 */
const knexNote = (message: unknown): void => {
  if (process.env.WORKBENCH_DEBUG) process.stderr.write(`knex: ${String(message).split('\n')[0]}\n`);
};
const knexLog = {warn: knexNote, error: knexNote, deprecate: knexNote, debug: knexNote};

/**
 * Opens (and migrates) the reader's database: no argument → SQLite at
 * `<WORKBENCH_HOME>/reader.sqlite`; `postgres://…` or `mysql://…` → that server.
 */
export async function openStore(connection?: string): Promise<Store> {
  const config = storeConfig(connection);
  const knex = await loadKnex();
  const db = knex({...config.knex, log: knexLog});
  try {
    await db.migrate.latest({migrationSource: readerMigrations(config.dialect), tableName: 'reader_migrations'});
  } catch (error) {
    await db.destroy().catch(() => {});
    throw new WorkbenchError(environmentFault(error) ?? 'config_invalid', `cannot open the reader database at ${config.location}: ${describeError(error)}`);
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
