import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {installRoot} from '../../core/entry.js';
import {WorkbenchError} from '../../core/errors.js';
import type {Provider} from '../types.js';

/** The providers the sample can be loaded into: those Chinook ships a script for here. */
export type SampleProvider = Exclude<Provider, 'sqlserver'>;

/** Chinook's scripts, with its licence: `fixtures/chinook` of the installation. */
export function chinookDir(): string {
  return join(installRoot(), 'fixtures', 'chinook');
}

/** Chinook's 11 tables, in the SQLite and MySQL scripts' spelling (PascalCase). */
export const CHINOOK_TABLES = ['Album', 'Artist', 'Customer', 'Employee', 'Genre', 'Invoice', 'InvoiceLine', 'MediaType', 'Playlist', 'PlaylistTrack', 'Track'] as const;

/** `InvoiceLine` → `invoice_line`: how the PostgreSQL script spells the same name (its columns too: `artist_id`). */
export const snakeCase = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();

/** The sample's table names as a provider's script creates them. */
export function chinookTables(provider: SampleProvider): string[] {
  return CHINOOK_TABLES.map((name) => (provider === 'postgres' ? snakeCase(name) : name));
}

/** A first query the sample answers, in the provider's spelling. */
export function sampleQuery(provider: SampleProvider): string {
  return provider === 'postgres' ? '{ artist(limit: 5) { data { name } } }' : '{ Artist(limit: 5) { data { Name } } }';
}

const SCRIPTS: Record<SampleProvider, {file: string; switchLine?: RegExp}> = {
  sqlite: {file: 'Chinook_Sqlite.sql'},
  // These open by dropping, creating and switching to a database of their own (`\c chinook;` is a
  // psql command no driver understands): everything up to the switch goes, and the tables land in
  // the database the connection names.
  postgres: {file: 'Chinook_PostgreSql.sql', switchLine: /^\\c chinook;\s*$/m},
  mysql: {file: 'Chinook_MySql.sql', switchLine: /^USE `Chinook`;\s*$/m},
};

/** The provider's Chinook script, from its table definitions on. */
export function chinookScript(provider: SampleProvider): string {
  const {file, switchLine} = SCRIPTS[provider];
  const path = join(chinookDir(), file);
  let script: string;
  try {
    script = readFileSync(path, 'utf8');
  } catch (error) {
    throw new WorkbenchError('not_found', `the Chinook script ${path} is missing from this installation (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
  if (!switchLine) return script;
  const match = switchLine.exec(script);
  if (!match) throw new WorkbenchError('internal', `the Chinook script ${path} has changed: no ${switchLine} line`);
  return script.slice(match.index + match[0].length);
}
