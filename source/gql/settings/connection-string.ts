import type {Knex} from 'knex';
import {WorkbenchError} from '../../core/errors.js';
import type {ConnectionInfo, Provider} from '../types.js';

interface Pair {
  /** As written. */
  key: string;
  /** Lower case, spaces removed: `User Id`, `userid` and `USER ID` are one key. */
  normal: string;
  value: string;
}

/** The keys each provider reads, by normalised name: the spec's names first, then common aliases. */
const KEYS: Record<Provider, Record<string, string[]>> = {
  sqlserver: {
    server: ['server', 'datasource', 'address', 'addr', 'networkaddress'],
    port: ['port'],
    database: ['database', 'initialcatalog'],
    user: ['userid', 'uid', 'user', 'username'],
    password: ['password', 'pwd'],
    trustServerCertificate: ['trustservercertificate'],
    encrypt: ['encrypt'],
  },
  postgres: {
    server: ['host', 'server'],
    port: ['port'],
    database: ['database', 'db'],
    user: ['username', 'userid', 'user', 'uid'],
    password: ['password', 'pwd'],
  },
  mysql: {
    server: ['server', 'host'],
    port: ['port'],
    database: ['database', 'db'],
    user: ['user', 'userid', 'username', 'uid'],
    password: ['password', 'pwd'],
  },
  sqlite: {
    filename: ['datasource', 'filename'],
  },
};

const TRUST_WARNING =
  'TrustServerCertificate=True: the SQL Server certificate is accepted without any check (expired, self-signed, any issuer). ' +
  'The connection stays encrypted, but a party on the network path can terminate it and read credentials and queries undetected. ' +
  'Use it only for a development or internal server over a controlled network, never as a production fix: install a certificate the trust store accepts, or add the internal CA.';

/**
 * Reads a connection string in the spec's `key=value;` shapes into a knex config. Keys are
 * case-insensitive and spaces inside them do not count (`User Id` = `userid`); a value may be
 * quoted with `"` or `'` (a doubled quote inside stands for one) to hold `;` or `=`.
 * Keys the provider does not read are reported in `warnings`, never silently dropped.
 */
export function parseConnectionString(provider: Provider, text: string): ConnectionInfo {
  const pairs = splitPairs(text);
  const known = KEYS[provider];
  const values: Record<string, string> = {};
  const warnings: string[] = [];
  for (const pair of pairs) {
    const name = Object.keys(known).find((field) => known[field].includes(pair.normal));
    if (!name) {
      warnings.push(`connection string key "${pair.key}" is not used by the ${provider} provider and was ignored`);
      continue;
    }
    if (name in values) throw new WorkbenchError('config_invalid', `connection string gives ${known[name][0]} twice ("${pair.key}")`);
    values[name] = pair.value;
  }
  const required = (name: string, label: string): string => {
    const value = values[name];
    if (value === undefined || value.trim() === '') throw new WorkbenchError('config_invalid', `the ${provider} connection string has no ${label}`);
    return value.trim();
  };
  const redacted = pairs.map((pair) => `${pair.key}=${known.password?.includes(pair.normal) ? '***' : quote(pair.value)}`).join(';');

  if (provider === 'sqlite') {
    const filename = required('filename', 'Data Source');
    return {provider, knex: {client: 'better-sqlite3', connection: {filename}, useNullAsDefault: true}, redacted, warnings};
  }

  const {host, port} = hostAndPort(provider, required('server', provider === 'postgres' ? 'Host' : 'Server'), values.port);
  const database = required('database', 'Database');
  const user = values.user?.trim() || undefined;
  const password = values.password;

  if (provider === 'sqlserver') {
    const trustServerCertificate = bool(values.trustServerCertificate, 'TrustServerCertificate') ?? false;
    // The spec: encrypted by default, certificate validated; only an explicit Encrypt=False turns it off.
    const encrypt = bool(values.encrypt, 'Encrypt') ?? true;
    if (trustServerCertificate) warnings.push(TRUST_WARNING);
    if (!encrypt) warnings.push('Encrypt=False: the SQL Server connection is not encrypted; credentials and queries cross the network in clear text.');
    const connection = {server: host, port, database, user, password, options: {encrypt, trustServerCertificate}};
    return {provider, knex: {client: 'mssql', connection: connection as Knex.MsSqlConnectionConfig}, redacted, warnings};
  }
  const client = provider === 'postgres' ? 'pg' : 'mysql2';
  return {provider, knex: {client, connection: {host, port, database, user, password}}, redacted, warnings};
}

/** Splits `a=1; b="x;y"` into pairs; empty segments (a trailing `;`) are skipped. */
function splitPairs(text: string): Pair[] {
  const pairs: Pair[] = [];
  let index = 0;
  while (index < text.length) {
    const equals = text.indexOf('=', index);
    const semicolon = text.indexOf(';', index);
    if (semicolon !== -1 && (equals === -1 || semicolon < equals)) {
      if (text.slice(index, semicolon).trim() !== '') throw new WorkbenchError('config_invalid', `connection string part "${text.slice(index, semicolon).trim()}" has no "="`);
      index = semicolon + 1;
      continue;
    }
    if (equals === -1) {
      if (text.slice(index).trim() !== '') throw new WorkbenchError('config_invalid', `connection string part "${text.slice(index).trim()}" has no "="`);
      break;
    }
    const key = text.slice(index, equals).trim();
    if (key === '') throw new WorkbenchError('config_invalid', 'connection string has a value with no key before "="');
    let cursor = equals + 1;
    while (text[cursor] === ' ') cursor++;
    let value: string;
    const quoteChar = text[cursor];
    if (quoteChar === '"' || quoteChar === "'") {
      value = '';
      cursor++;
      for (;;) {
        if (cursor >= text.length) throw new WorkbenchError('config_invalid', `connection string value of "${key}" has no closing ${quoteChar}`);
        if (text[cursor] === quoteChar) {
          if (text[cursor + 1] === quoteChar) {
            value += quoteChar;
            cursor += 2;
            continue;
          }
          cursor++;
          break;
        }
        value += text[cursor++];
      }
      const end = text.indexOf(';', cursor);
      const rest = text.slice(cursor, end === -1 ? text.length : end);
      if (rest.trim() !== '') throw new WorkbenchError('config_invalid', `connection string value of "${key}" has text after its closing quote`);
      index = end === -1 ? text.length : end + 1;
    } else {
      const end = text.indexOf(';', cursor);
      value = text.slice(cursor, end === -1 ? text.length : end).trim();
      index = end === -1 ? text.length : end + 1;
    }
    pairs.push({key, normal: key.toLowerCase().replace(/\s+/g, ''), value});
  }
  return pairs;
}

/** `host,1433` (SQL Server's form) or `host:port`, with an optional `tcp:` prefix; a Port key wins. */
function hostAndPort(provider: Provider, server: string, portText: string | undefined): {host: string; port: number} {
  let host = server.replace(/^tcp:/i, '');
  let port = provider === 'sqlserver' ? 1433 : provider === 'postgres' ? 5432 : 3306;
  const inline = /^(.*?)[,:](\d+)$/.exec(host);
  if (inline && !host.includes('::')) {
    host = inline[1];
    port = Number(inline[2]);
  }
  if (portText !== undefined) {
    if (!/^\s*\d+\s*$/.test(portText) || Number(portText) < 1 || Number(portText) > 65535)
      throw new WorkbenchError('config_invalid', `connection string Port must be a number 1–65535 (got "${portText}")`);
    port = Number(portText);
  }
  return {host, port};
}

function bool(text: string | undefined, key: string): boolean | undefined {
  if (text === undefined) return undefined;
  const value = text.trim().toLowerCase();
  if (value === 'true' || value === 'yes') return true;
  if (value === 'false' || value === 'no') return false;
  throw new WorkbenchError('config_invalid', `connection string ${key} must be True or False (got "${text}")`);
}

/** Pairs written back in the `key=value;` shape, values quoted where they must be. */
export function formatConnectionString(pairs: Array<[key: string, value: string]>): string {
  return pairs.map(([key, value]) => `${key}=${quote(value)}`).join(';');
}

function quote(value: string): string {
  return /[;"'=]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
