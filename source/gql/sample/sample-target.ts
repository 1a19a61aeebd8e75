import {resolve} from 'node:path';
import {WorkbenchError} from '../../core/errors.js';
import {formatConnectionString, parseConnectionString} from '../settings/connection-string.js';
import {loadGqlSettings} from '../settings/load-settings.js';
import type {ConnectionInfo, Provider} from '../types.js';

export interface SampleTarget {
  connection: ConnectionInfo;
  /** The service's settings for it: `ConnectionStrings:gqlservice` (password as `***`) and `GqlService:Provider`. */
  connectionString: string;
  provider: Provider;
  /** True when it is the database the service's settings name (no `--db`): `gql query` reads it as it is. */
  isServiceDatabase: boolean;
  /** The settings the service database came from (`defaults` or a file). */
  settingsSource?: string;
}

/**
 * Where `gql sample` loads: the database the service's settings name (`--settings`, else
 * ./appsettings.json, else the embedded `WORKBENCH_HOME/graphql.sqlite`), or `--db` in any shape
 * the service and the other `--db` flags take: a SQLite path (`sqlite:` optional),
 * `postgres://user@host:port/db` or `mysql://` / `mariadb://` URLs, or a connection string
 * in the spec's `key=value;` shape — `Data Source=` SQLite, `Host=` PostgreSQL, `Server=`
 * MySQL/MariaDB (the sample has no SQL Server script).
 */
export function sampleTarget(options: {db?: string; settings?: string; cwd?: string}): SampleTarget {
  if (options.db === undefined) {
    const settings = loadGqlSettings({file: options.settings, cwd: options.cwd});
    return {
      connection: parseConnectionString(settings.provider, settings.connectionString),
      connectionString: settings.connectionString,
      provider: settings.provider,
      isServiceDatabase: true,
      settingsSource: settings.source,
    };
  }
  if (options.settings !== undefined) throw new WorkbenchError('invalid_argument', 'give --db or --settings, not both');
  const text = options.db.trim();
  if (text === '') throw new WorkbenchError('invalid_argument', '--db is empty');
  const {provider, connectionString} = serviceConnection(text, options.cwd ?? process.cwd());
  return {connection: parseConnectionString(provider, connectionString), connectionString, provider, isServiceDatabase: false};
}

/** A `--db` value as the service's provider and connection string. */
function serviceConnection(text: string, cwd: string): {provider: Provider; connectionString: string} {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text)?.[1]?.toLowerCase();
  if (scheme === 'postgres' || scheme === 'postgresql' || scheme === 'mysql' || scheme === 'mariadb') {
    const url = parseUrl(text);
    if (url.search) throw new WorkbenchError('invalid_argument', `--db: ${url.search} is not read here: the sample goes into the database's default schema`);
    const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
    if (!database) throw new WorkbenchError('invalid_argument', '--db: the URL names no database (…/<database>)');
    const postgres = scheme.startsWith('postgres');
    const pairs: Array<[string, string]> = [
      [postgres ? 'Host' : 'Server', url.hostname.replace(/^\[|\]$/g, '')],
      ['Port', url.port || (postgres ? '5432' : '3306')],
      ['Database', database],
    ];
    if (url.username) pairs.push([postgres ? 'Username' : 'User', decodeURIComponent(url.username)]);
    if (url.password) pairs.push(['Password', decodeURIComponent(url.password)]);
    return {provider: postgres ? 'postgres' : 'mysql', connectionString: formatConnectionString(pairs)};
  }
  if (scheme !== undefined && scheme !== 'sqlite' && scheme !== 'file') {
    throw new WorkbenchError('invalid_argument', `--db: unsupported database URL "${scheme}://…": use a SQLite path, postgres://… or mysql://…`);
  }
  // `key=value;`: the keys say the provider.
  if (scheme === undefined && /^\s*[A-Za-z][A-Za-z ]*=/.test(text)) {
    const keys = text.split(';').map((part) => part.split('=')[0].trim().toLowerCase().replace(/\s+/g, ''));
    const provider: Provider | undefined = keys.some((key) => key === 'datasource' || key === 'filename')
      ? 'sqlite'
      : keys.includes('host')
        ? 'postgres'
        : keys.includes('server')
          ? 'mysql'
          : undefined;
    if (!provider) throw new WorkbenchError('invalid_argument', '--db: a connection string needs Data Source= (SQLite), Host= (PostgreSQL) or Server= (MySQL/MariaDB)');
    return {provider, connectionString: text};
  }
  const path = text.replace(/^(sqlite|file):(\/\/)?/i, '');
  if (path === ':memory:') throw new WorkbenchError('invalid_argument', '--db: an in-memory database would be gone when the command ends');
  return {provider: 'sqlite', connectionString: formatConnectionString([['Data Source', resolve(cwd, path)]])};
}

function parseUrl(text: string): URL {
  try {
    return new URL(text);
  } catch {
    throw new WorkbenchError('invalid_argument', '--db: the database URL does not parse');
  }
}
