import {WorkbenchError} from '../../core/errors.js';
import type {Dialect} from './dialect.js';
import {mssql} from './mssql.js';
import {mysql} from './mysql.js';
import {postgres} from './postgres.js';
import {sqlite} from './sqlite.js';

const DIALECTS: Readonly<Record<Dialect['provider'], Dialect>> = {postgres, mysql, sqlite, sqlserver: mssql};

/** The dialect of a model's `provider`; an unknown provider is a clear error naming the ones there are. */
export function dialectOf(provider: string): Dialect {
  const dialect = Object.hasOwn(DIALECTS, provider) ? DIALECTS[provider as Dialect['provider']] : undefined;
  if (!dialect) throw new WorkbenchError('invalid_argument', `unknown database provider ${JSON.stringify(provider)}: one of ${Object.keys(DIALECTS).join(', ')}`);
  return dialect;
}
