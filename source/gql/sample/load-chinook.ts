import type {Knex} from 'knex';
import {WorkbenchError, describeError, environmentFault} from '../../core/errors.js';
import {dialectOf} from '../dialect/dialect-of.js';
import {damagedDatabaseError, isDamagedDatabase} from '../../storage/index.js';
import {connectGql, sqliteFile} from '../settings/connect.js';
import type {ConnectionInfo} from '../types.js';
import {chinookScript, chinookTables, type SampleProvider} from './chinook-scripts.js';

/** What to do when the database already has tables: refuse (the default), replace the sample's own tables, or keep what is there. */
export type ExistingTables = 'refuse' | 'replace' | 'keep';

export interface SampleLoad {
  provider: SampleProvider;
  /** The SQLite file, or the redacted connection string. */
  where: string;
  /** False when `keep` found tables and loaded nothing. */
  loaded: boolean;
  /** The sample's tables, as the provider's script names them. */
  tables: string[];
  /** Rows in them after the load. */
  rows: number;
  /** The whole load, connection included. */
  ms: number;
}

/** One session's statements: the driver's own connection, so a whole script goes in one call (no `?` rewriting by knex). */
interface Session {
  run(sql: string): Promise<void>;
  rows(sql: string): Promise<Array<Record<string, unknown>>>;
}

type SqliteRaw = {exec(sql: string): void; prepare(sql: string): {all(): Array<Record<string, unknown>>; pluck(): {get(): unknown}}; inTransaction: boolean};
type PgRaw = {query(sql: string): Promise<{rows: Array<Record<string, unknown>>}>};
type MysqlRaw = {query(sql: string, done: (error: Error | null, rows: unknown) => void): void};

function session(provider: SampleProvider, raw: unknown): Session {
  if (provider === 'sqlite') {
    const db = raw as SqliteRaw;
    return {run: async (sql) => void db.exec(sql), rows: async (sql) => db.prepare(sql).all()};
  }
  if (provider === 'postgres') {
    const client = raw as PgRaw;
    return {run: async (sql) => void (await client.query(sql)), rows: async (sql) => (await client.query(sql)).rows};
  }
  const connection = raw as MysqlRaw;
  const query = (sql: string) => new Promise<unknown>((resolve, reject) => connection.query(sql, (error, rows) => (error ? reject(error) : resolve(rows))));
  return {run: async (sql) => void (await query(sql)), rows: async (sql) => (await query(sql)) as Array<Record<string, unknown>>};
}

const TABLES_SQL: Record<SampleProvider, string> = {
  sqlite: "select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\' order by name",
  postgres:
    "select case when table_schema = current_schema() then table_name else table_schema || '.' || table_name end as name from information_schema.tables " +
    "where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1",
  mysql: "select table_name as name from information_schema.tables where table_schema = database() and table_type = 'BASE TABLE' order by 1",
};

const quoted = (provider: SampleProvider, name: string) => dialectOf(provider).quoteIdentifier(name);

async function tablesIn(provider: SampleProvider, sql: Session): Promise<string[]> {
  return (await sql.rows(TABLES_SQL[provider])).map((row) => String(row.name ?? row.NAME));
}

function refusal(where: string, tables: string[]): WorkbenchError {
  const shown = tables.slice(0, 4).join(', ') + (tables.length > 4 ? ', …' : '');
  return new WorkbenchError(
    'conflict',
    `${where} already has ${tables.length} table${tables.length === 1 ? '' : 's'} (${shown}); the sample goes only into an empty database — --force loads it anyway, replacing the sample's own tables and keeping the others`,
    {tables},
  );
}

/**
 * Loads the Chinook sample (fixtures/chinook, its licence beside it) into the database a
 * connection names, through knex's pool and the driver's own connection, whole or not at all
 * where the database allows: SQLite and PostgreSQL in one transaction (SQLite's `begin
 * immediate`, so a second loader waits and then sees the tables); MySQL/MariaDB commit each
 * DDL statement, so a failed load there drops the sample's tables again. The tables are
 * checked in the same session before anything is written.
 */
export async function loadChinook(connection: ConnectionInfo, options: {existing?: ExistingTables} = {}): Promise<SampleLoad> {
  const existing = options.existing ?? 'refuse';
  if (connection.provider === 'sqlserver') throw new WorkbenchError('invalid_argument', 'the Chinook sample is here for SQLite, PostgreSQL and MySQL/MariaDB only, not SQL Server');
  const provider: SampleProvider = connection.provider;
  const script = chinookScript(provider);
  const where = sqliteFile(connection) ?? connection.redacted;
  const started = performance.now();
  const overrides: Knex.Config =
    provider === 'mysql'
      ? {connection: {...(connection.knex.connection as object), multipleStatements: true}, pool: {min: 0, max: 1}}
      : provider === 'postgres'
        ? {pool: {min: 0, max: 1}}
        : {};
  const db = connectGql(connection, overrides);
  try {
    const raw: unknown = await db.client.acquireConnection();
    try {
      const sql = session(provider, raw);
      const tables = chinookTables(provider);
      const loaded = await (provider === 'sqlite' ? loadSqlite : provider === 'postgres' ? loadPostgres : loadMysql)(sql, raw, {script, tables, existing, where});
      const rows = loaded ? await countRows(provider, sql, tables) : 0;
      return {provider, where, loaded, tables, rows, ms: Math.round(performance.now() - started)};
    } finally {
      await db.client.releaseConnection(raw);
    }
  } catch (error) {
    if (error instanceof WorkbenchError) throw error;
    if (provider === 'sqlite' && isDamagedDatabase(error)) throw damagedDatabaseError(where, error);
    throw new WorkbenchError(environmentFault(error) ?? 'invalid_argument', `cannot load the sample into ${where}: ${describeError(error)}`);
  } finally {
    await db.destroy();
  }
}

interface LoadPlan {
  script: string;
  tables: string[];
  existing: ExistingTables;
  where: string;
}

/** Whether to go on, given the tables there: false for `keep` with tables, a refusal for `refuse`. */
function proceed(plan: LoadPlan, present: string[]): boolean {
  if (present.length === 0 || plan.existing === 'replace') return true;
  if (plan.existing === 'keep') return false;
  throw refusal(plan.where, present);
}

async function loadSqlite(sql: Session, raw: unknown, plan: LoadPlan): Promise<boolean> {
  const db = raw as SqliteRaw;
  // The script creates Album before the Artist it references and drops in the same order: checked
  // only at the end. (The pragma cannot change inside a transaction.)
  const foreignKeys = db.prepare('pragma foreign_keys').pluck().get();
  await sql.run('pragma foreign_keys = off');
  try {
    await sql.run('begin immediate');
    try {
      if (!proceed(plan, await tablesIn('sqlite', sql))) {
        await sql.run('rollback');
        return false;
      }
      // The script opens with `drop table if exists` for each of its tables.
      await sql.run(plan.script);
      await sql.run('commit');
      return true;
    } catch (error) {
      if (db.inTransaction) await sql.run('rollback');
      throw error;
    }
  } finally {
    await sql.run(`pragma foreign_keys = ${foreignKeys ? 'on' : 'off'}`);
  }
}

async function loadPostgres(sql: Session, _raw: unknown, plan: LoadPlan): Promise<boolean> {
  await sql.run('begin');
  try {
    if (!proceed(plan, await tablesIn('postgres', sql))) {
      await sql.run('rollback');
      return false;
    }
    if (plan.existing === 'replace') await sql.run(`drop table if exists ${plan.tables.map((name) => quoted('postgres', name)).join(', ')} cascade`);
    // One simple query: the whole script in the open transaction.
    await sql.run(plan.script);
    await sql.run('commit');
    return true;
  } catch (error) {
    await sql.run('rollback').catch(() => undefined);
    throw error;
  }
}

async function loadMysql(sql: Session, _raw: unknown, plan: LoadPlan): Promise<boolean> {
  if (!proceed(plan, await tablesIn('mysql', sql))) return false;
  const drop = `set foreign_key_checks = 0; drop table if exists ${plan.tables.map((name) => quoted('mysql', name)).join(', ')}; set foreign_key_checks = 1`;
  if (plan.existing === 'replace') await sql.run(drop);
  try {
    await sql.run(plan.script);
    return true;
  } catch (error) {
    // DDL committed as it ran: what the failed load made goes again (the database had none of it before).
    await sql.run(drop).catch(() => undefined);
    throw error;
  }
}

async function countRows(provider: SampleProvider, sql: Session, tables: string[]): Promise<number> {
  const union = tables.map((name) => `select count(*) as n from ${quoted(provider, name)}`).join(' union all ');
  const rows = await sql.rows(`select sum(n) as total from (${union}) counts`);
  return Number(rows[0]?.total ?? 0);
}
