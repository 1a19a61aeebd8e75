import {resolve} from 'node:path';
import knex, {type Knex} from 'knex';
import {WorkbenchError, environmentFault} from '../../core/errors.js';
import {driverWords} from '../../storage/driver-words.js';
import {damagedDatabaseError, isDamagedDatabase, knexLog, prepareSqliteFile} from '../../storage/index.js';
import type {ConnectionInfo} from '../types.js';
import {defaultGqlDatabase} from './load-settings.js';

/** The SQLite file a connection names, or undefined (another provider, or `:memory:`). */
export function sqliteFile(connection: ConnectionInfo): string | undefined {
  if (connection.provider !== 'sqlite') return undefined;
  const filename = (connection.knex.connection as {filename: string}).filename;
  return filename === ':memory:' ? undefined : resolve(filename);
}

/**
 * A knex over the service's database: every GraphQL face (the service, `gql check`, `gql
 * events`, `gql sample`) opens it here. A SQLite file gets the reader's treatment first
 * (storage/sqlite-file.ts): its folder made 0700 — a new user's WORKBENCH_HOME included — and the
 * file 0600, the embedded default tightened to it; and knex's own logger is kept off stdout.
 */
export function connectGql(connection: ConnectionInfo, overrides: Knex.Config = {}): Knex {
  const file = sqliteFile(connection);
  if (file !== undefined) prepareSqliteFile(file, {tighten: file === resolve(defaultGqlDatabase()), what: 'GraphQL'});
  return knex({...connection.knex, ...overrides, log: knexLog});
}

/** Why the database could not be read, in one line: a damaged SQLite file, an unreachable server, or the driver's words. */
export function databaseReadError(connection: ConnectionInfo, error: unknown): WorkbenchError {
  const file = sqliteFile(connection);
  if (file !== undefined && isDamagedDatabase(error)) return damagedDatabaseError(file, error);
  if (error instanceof WorkbenchError) return error;
  return new WorkbenchError(environmentFault(error) ?? 'database_unavailable', `cannot read the database (${connection.redacted}): ${driverWords(error)}`);
}
