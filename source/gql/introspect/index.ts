/**
 * The live database → DbModel: tables and views with their columns and kinds, primary and foreign
 * keys, schemas and stored procedures, on each provider in a handful of catalog statements (not one
 * per table), so a model loads as fast on 500 tables as on 5.
 */
import type {Knex} from 'knex';
import {environmentFault, WorkbenchError} from '../../core/errors.js';
import {driverWords} from '../../storage/driver-words.js';
import type {DbModel, Provider} from '../types.js';
import {assembleDbModel} from './assemble.js';
import type {Catalog} from './catalog.js';
import {mysqlCatalog} from './mysql.js';
import {postgresCatalog} from './postgres.js';
import {sqliteCatalog} from './sqlite.js';
import {sqlServerCatalog} from './sqlserver.js';

export interface IntrospectOptions {
  /** Only these schemas (all non-system ones when absent or empty). */
  schemas?: string[];
}

const CATALOGS: Record<Provider, (db: Knex) => Promise<Catalog>> = {
  sqlite: sqliteCatalog,
  postgres: postgresCatalog,
  mysql: mysqlCatalog,
  sqlserver: sqlServerCatalog,
};

export async function introspect(db: Knex, provider: Provider, options: IntrospectOptions = {}): Promise<DbModel> {
  let catalog: Catalog;
  try {
    catalog = await CATALOGS[provider](db);
  } catch (error) {
    // A full disk stays a full disk; anything else (unreachable, no permission on the catalog) means the database cannot be served.
    throw new WorkbenchError(environmentFault(error) ?? 'database_unavailable', `Could not read the ${provider} database's tables: ${driverWords(error)}`, error);
  }
  return assembleDbModel(provider, catalog, options.schemas);
}

export {columnKind} from './column-kind.js';
