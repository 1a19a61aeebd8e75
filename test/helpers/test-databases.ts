// The databases the store tests (reader, gateway) run on: SQLite always, PostgreSQL and MariaDB when the
// machine's servers answer on 127.0.0.1. Each test run gets its own schema / database, dropped
// afterwards, so parallel runs never collide. An unreachable server skips its tests loudly, or
// fails them when WORKBENCH_REQUIRE_SERVICES is set.
import {randomBytes} from 'node:crypto';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import knex from 'knex';

export type DatabaseKind = 'sqlite' | 'postgres' | 'mysql';

export interface TestDatabase {
  kind: DatabaseKind;
  /** Why it cannot run here, or null. */
  unavailable: string | null;
  /** A fresh, empty database; drop() removes it. */
  create(): Promise<{connection: string; drop(): Promise<void>}>;
  /**
   * A fresh, empty database of its own, never a schema in a shared one: for tests that read every
   * schema of the database they are given (the GraphQL service's introspection). On SQLite and
   * MariaDB the same as create().
   */
  createDatabase(): Promise<{connection: string; drop(): Promise<void>}>;
}

const uniqueName = () => `wb_${process.pid}_${randomBytes(4).toString('hex')}`;

async function reachable(config: knex.Knex.Config): Promise<string | null> {
  const db = knex({...config, pool: {min: 0, max: 1}, acquireConnectionTimeout: 3000});
  try {
    await db.raw('select 1');
    return null;
  } catch (error) {
    return (error as Error).message.split('\n')[0] ?? String(error);
  } finally {
    await db.destroy();
  }
}

async function admin<T>(config: knex.Knex.Config, run: (db: knex.Knex) => Promise<T>): Promise<T> {
  const db = knex({...config, pool: {min: 0, max: 1}});
  try {
    return await run(db);
  } finally {
    await db.destroy();
  }
}

const sqlite: TestDatabase = {
  kind: 'sqlite',
  unavailable: null,
  async create() {
    const dir = mkdtempSync(join(tmpdir(), 'wb-db-'));
    return {connection: join(dir, 'store.sqlite'), drop: async () => rmSync(dir, {recursive: true, force: true})};
  },
  createDatabase: () => sqlite.create(),
};

async function postgres(): Promise<TestDatabase> {
  let base = '';
  let unavailable: string | null = 'not tried';
  for (const user of ['postgres', 'root']) {
    base = `postgres://${user}@127.0.0.1:5432/test`;
    unavailable = await reachable({client: 'pg', connection: base});
    if (unavailable === null) break;
  }
  return {
    kind: 'postgres',
    unavailable,
    async create() {
      const schema = uniqueName();
      await admin({client: 'pg', connection: base}, (db) => db.raw(`create schema ${schema}`));
      return {
        connection: `${base}?schema=${schema}`,
        drop: () => admin({client: 'pg', connection: base}, (db) => db.raw(`drop schema if exists ${schema} cascade`)).then(() => undefined),
      };
    },
    async createDatabase() {
      const name = uniqueName();
      await admin({client: 'pg', connection: base}, (db) => db.raw(`create database ${name}`));
      return {
        connection: base.replace(/\/test$/, `/${name}`),
        // WITH (FORCE) ends sessions a failed test left open, so the drop never hangs or fails.
        drop: () => admin({client: 'pg', connection: base}, (db) => db.raw(`drop database if exists ${name} with (force)`)).then(() => undefined),
      };
    },
  };
}

async function mysql(): Promise<TestDatabase> {
  const base = 'mysql://root@127.0.0.1:3306/test';
  const database: TestDatabase = {
    kind: 'mysql',
    unavailable: await reachable({client: 'mysql2', connection: base}),
    async create() {
      const name = uniqueName();
      await admin({client: 'mysql2', connection: base}, (db) => db.raw(`create database ${name} character set utf8mb4`));
      return {
        connection: `mysql://root@127.0.0.1:3306/${name}`,
        drop: () => admin({client: 'mysql2', connection: base}, (db) => db.raw(`drop database if exists ${name}`)).then(() => undefined),
      };
    },
    createDatabase: () => database.create(),
  };
  return database;
}

/** SQLite, PostgreSQL and MariaDB; the unreachable ones are marked (and fail when services are required). */
export async function testDatabases(): Promise<TestDatabase[]> {
  const all = [sqlite, await postgres(), await mysql()];
  for (const database of all) {
    if (database.unavailable === null) continue;
    const message = `${database.kind} unreachable on 127.0.0.1 (${database.unavailable}): its tests are SKIPPED`;
    if (process.env.WORKBENCH_REQUIRE_SERVICES) throw new Error(`${message} — and WORKBENCH_REQUIRE_SERVICES is set`);
    console.warn(`\n!!! ${message} !!!\n`);
  }
  return all;
}
