// Each provider's type names map to the kinds the GraphQL layer serves.
import {describe, expect, it} from 'vitest';
import {columnKind} from '../../../../source/gql/introspect/column-kind.js';
import type {ColumnKind, Provider} from '../../../../source/gql/types.js';

const cases: Array<[Provider, string, string | undefined, ColumnKind]> = [
  ['sqlite', 'INTEGER', undefined, 'int'],
  ['sqlite', 'BIGINT', undefined, 'bigint'],
  ['sqlite', 'NVARCHAR(160)', undefined, 'string'],
  ['sqlite', 'NUMERIC(10,2)', undefined, 'decimal'],
  ['sqlite', 'DATETIME', undefined, 'datetime'],
  ['sqlite', 'date', undefined, 'date'],
  ['sqlite', 'boolean', undefined, 'boolean'],
  ['sqlite', 'REAL', undefined, 'float'],
  ['sqlite', 'BLOB', undefined, 'binary'],
  ['sqlite', '', undefined, 'string'],
  ['sqlite', 'json', undefined, 'json'],
  ['postgres', 'integer', undefined, 'int'],
  ['postgres', 'numeric', undefined, 'decimal'],
  ['postgres', 'character varying', undefined, 'string'],
  ['postgres', 'timestamp with time zone', undefined, 'datetime'],
  ['postgres', 'jsonb', undefined, 'json'],
  ['postgres', 'uuid', undefined, 'uuid'],
  ['postgres', 'integer', 'integer[]', 'json'],
  ['postgres', 'mood', undefined, 'string'],
  ['mysql', 'tinyint', 'tinyint(1)', 'boolean'],
  ['mysql', 'tinyint', 'tinyint(4)', 'int'],
  ['mysql', 'int', 'int(10) unsigned', 'int'],
  ['mysql', 'decimal', 'decimal(10,2)', 'decimal'],
  ['mysql', 'longblob', undefined, 'binary'],
  ['mysql', 'enum', "enum('a','b')", 'string'],
  ['sqlserver', 'bit', undefined, 'boolean'],
  ['sqlserver', 'uniqueidentifier', undefined, 'uuid'],
  ['sqlserver', 'datetimeoffset', undefined, 'datetime'],
  ['sqlserver', 'nvarchar', undefined, 'string'],
];

describe('column kinds', () => {
  it.each(cases)('%s %s (%s) → %s', (provider, type, full, kind) => {
    expect(columnKind(provider, type, full)).toBe(kind);
  });
});
