/**
 * A database type name → the ColumnKind the GraphQL layer maps to a scalar and a filter. Each
 * provider names its types its own way; unknown types read as strings (what a driver returns for
 * them anyway), never as an error.
 */
import type {ColumnKind, Provider} from '../types.js';

const POSTGRES: Record<string, ColumnKind> = {
  smallint: 'int',
  integer: 'int',
  bigint: 'bigint',
  real: 'float',
  'double precision': 'float',
  numeric: 'decimal',
  money: 'decimal',
  boolean: 'boolean',
  date: 'date',
  'timestamp without time zone': 'datetime',
  'timestamp with time zone': 'datetime',
  'time without time zone': 'time',
  'time with time zone': 'time',
  json: 'json',
  jsonb: 'json',
  bytea: 'binary',
  uuid: 'uuid',
};

const MYSQL: Record<string, ColumnKind> = {
  tinyint: 'int',
  smallint: 'int',
  mediumint: 'int',
  int: 'int',
  integer: 'int',
  year: 'int',
  bigint: 'bigint',
  float: 'float',
  double: 'float',
  real: 'float',
  decimal: 'decimal',
  numeric: 'decimal',
  bool: 'boolean',
  boolean: 'boolean',
  date: 'date',
  datetime: 'datetime',
  timestamp: 'datetime',
  time: 'time',
  json: 'json',
  binary: 'binary',
  varbinary: 'binary',
  tinyblob: 'binary',
  blob: 'binary',
  mediumblob: 'binary',
  longblob: 'binary',
  uuid: 'uuid',
};

const SQLSERVER: Record<string, ColumnKind> = {
  tinyint: 'int',
  smallint: 'int',
  int: 'int',
  bigint: 'bigint',
  real: 'float',
  float: 'float',
  decimal: 'decimal',
  numeric: 'decimal',
  money: 'decimal',
  smallmoney: 'decimal',
  bit: 'boolean',
  date: 'date',
  datetime: 'datetime',
  datetime2: 'datetime',
  smalldatetime: 'datetime',
  datetimeoffset: 'datetime',
  time: 'time',
  binary: 'binary',
  varbinary: 'binary',
  image: 'binary',
  timestamp: 'binary',
  rowversion: 'binary',
  uniqueidentifier: 'uuid',
};

/** SQLite keeps the declared type as written: read it the way SQLite's own affinity rules do, then refine. */
function sqliteKind(declared: string): ColumnKind {
  const type = declared.toLowerCase();
  if (type.includes('int')) return type.includes('big') ? 'bigint' : 'int';
  if (/char|clob|text/.test(type)) return type.includes('uuid') || type.includes('guid') ? 'uuid' : 'string';
  if (type === '' || type.includes('blob')) return type === '' ? 'string' : 'binary';
  if (/real|floa|doub/.test(type)) return 'float';
  if (type.includes('bool')) return 'boolean';
  if (type.includes('datetime') || type.includes('timestamp')) return 'datetime';
  if (type.includes('date')) return 'date';
  if (type.includes('time')) return 'time';
  if (type.includes('json')) return 'json';
  if (type.includes('uuid') || type.includes('guid')) return 'uuid';
  return 'decimal'; // NUMERIC affinity: numeric, decimal(10,2), anything else
}

/**
 * `typeName` is the bare name (`tinyint`, `numeric`, `character varying`); `fullType` the declared
 * one where it says more (MySQL's `tinyint(1)` is its boolean; a PostgreSQL array is `integer[]`).
 */
export function columnKind(provider: Provider, typeName: string, fullType = typeName): ColumnKind {
  const type = typeName.toLowerCase();
  switch (provider) {
    case 'sqlite':
      return sqliteKind(fullType);
    case 'postgres':
      // An array is served as a JSON list.
      if (fullType.endsWith('[]')) return 'json';
      return POSTGRES[type] ?? 'string';
    case 'mysql':
      if (/^tinyint\(1\)/i.test(fullType) || /^bit\(1\)/i.test(fullType)) return 'boolean';
      return MYSQL[type] ?? 'string';
    case 'sqlserver':
      return SQLSERVER[type] ?? 'string';
  }
}
