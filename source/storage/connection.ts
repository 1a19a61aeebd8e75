import {resolve} from 'node:path';
import type {Knex} from 'knex';
import {WorkbenchError} from '../core/errors.js';
import {prepareSqliteFile} from './sqlite-file.js';

export type Dialect = 'sqlite' | 'postgres' | 'mysql';

export interface StoreConfig {
  dialect: Dialect;
  knex: Knex.Config;
  /** Where the data lives, without credentials, for logs and errors. */
  location: string;
}

/**
 * Reads a connection: nothing → the SQLite file `defaultFile` (a server's own under
 * WORKBENCH_HOME); `postgres://` (a `?schema=` picks the search path) and `mysql://` /
 * `mariadb://` URLs → those servers; anything else is a SQLite file path (`sqlite:` prefix
 * optional, `:memory:` allowed).
 */
export function databaseConfig(connection: string | undefined, defaultFile: string, what = 'reader'): StoreConfig {
  const text = connection?.trim() || defaultFile;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text)?.[1]?.toLowerCase();
  if (scheme === 'postgres' || scheme === 'postgresql') return postgresConfig(text);
  if (scheme === 'mysql' || scheme === 'mariadb') return mysqlConfig(text);
  if (scheme !== undefined && scheme !== 'sqlite' && scheme !== 'file') {
    throw new WorkbenchError('invalid_argument', `unsupported database URL "${scheme}://…": use a SQLite path, postgres://… or mysql://…`);
  }
  return sqliteConfig(text.replace(/^(sqlite|file):(\/\/)?/i, ''), defaultFile, what);
}

function sqliteConfig(path: string, defaultFile: string, what: string): StoreConfig {
  const filename = path === ':memory:' ? path : resolve(path);
  // The folder 0700 and the file 0600 before SQLite opens it (sqlite-file.ts); the default store is tightened.
  if (filename !== ':memory:') prepareSqliteFile(filename, {tighten: filename === resolve(defaultFile), what});
  return {
    dialect: 'sqlite',
    location: filename,
    knex: {
      client: 'better-sqlite3',
      connection: {filename},
      useNullAsDefault: true,
      // One connection: SQLite has one writer anyway, and knex transactions then never interleave.
      pool: {
        min: 1,
        max: 1,
        afterCreate(raw: {pragma(source: string): unknown}, done: (error: Error | null, connection: unknown) => void) {
          raw.pragma('journal_mode = WAL');
          raw.pragma('synchronous = NORMAL');
          raw.pragma('foreign_keys = ON');
          raw.pragma('busy_timeout = 5000');
          done(null, raw);
        },
      },
    },
  };
}

function postgresConfig(text: string): StoreConfig {
  const url = parseUrl(text);
  const schema = url.searchParams.get('schema');
  url.searchParams.delete('schema');
  if (schema !== null && !/^[a-z_][a-z0-9_]{0,62}$/i.test(schema)) throw new WorkbenchError('invalid_argument', `schema "${schema}" is not a plain identifier`);
  return {
    dialect: 'postgres',
    location: redacted(url) + (schema ? ` (schema ${schema})` : ''),
    knex: {client: 'pg', connection: url.toString(), searchPath: schema ? [schema] : undefined, pool: {min: 0, max: 8}},
  };
}

function mysqlConfig(text: string): StoreConfig {
  const url = parseUrl(text);
  url.protocol = 'mysql:';
  return {
    dialect: 'mysql',
    location: redacted(url),
    knex: {client: 'mysql2', connection: url.toString(), pool: {min: 0, max: 8}},
  };
}

function parseUrl(text: string): URL {
  try {
    return new URL(text);
  } catch {
    throw new WorkbenchError('invalid_argument', 'database URL does not parse');
  }
}

function redacted(url: URL): string {
  const copy = new URL(url);
  if (copy.password) copy.password = '***';
  return copy.toString();
}
