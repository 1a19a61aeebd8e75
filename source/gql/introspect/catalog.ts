/**
 * What each provider's catalog queries return, already in one shape: the columns of every table and
 * view in order, the primary and foreign keys with their columns in key order, the procedures.
 * assemble.ts turns it into the DbModel; the providers only talk to their catalogs.
 */
import type {DbColumn, DbProcedure} from '../types.js';

export interface CatalogColumn extends DbColumn {
  schema: string;
  table: string;
  isView: boolean;
}

export interface CatalogKey {
  schema: string;
  table: string;
  /** The constraint's name; made up (`fk_<table>_<n>`) where the database keeps none (SQLite). */
  name: string;
  type: 'primary' | 'foreign';
  /** In key order. */
  columns: string[];
  refSchema?: string;
  refTable?: string;
  /** In the same order as `columns`. */
  refColumns?: string[];
}

export interface Catalog {
  defaultSchema: string;
  columns: CatalogColumn[];
  keys: CatalogKey[];
  procedures: DbProcedure[];
}
