// GraphQL models built by hand, for tests of one stage (policy, batches, SQL text) without a
// database to introspect: the spec's defaults everywhere, overridden where a test needs it.
import type {ColumnKind, GqlColumn, GqlModel, GqlTable, Provider} from '../../source/gql/types.js';

export function gqlColumn(dbName: string, kind: ColumnKind = 'string', extra: Partial<GqlColumn> = {}): GqlColumn {
  return {
    dbName,
    name: dbName,
    kind,
    dataType: kind,
    nullable: true,
    isPrimaryKey: false,
    isIdentity: false,
    hasDefault: false,
    hidden: false,
    readOnly: false,
    meta: {},
    ...extra,
  };
}

/** A table keyed `schema.dbName`, its primary key read from its columns. */
export function gqlTable(schema: string, dbName: string, columns: GqlColumn[], extra: Partial<GqlTable> = {}): GqlTable {
  return {
    key: `${schema}.${dbName}`,
    schema,
    dbName,
    name: dbName,
    columns,
    primaryKey: columns.filter((column) => column.isPrimaryKey).map((column) => column.dbName),
    links: [],
    hidden: false,
    isView: false,
    autoFilters: [],
    deleteType: 'hard',
    bulkBatchThreshold: 50,
    batchDuplicatePolicy: 'last-wins',
    filteredUpdate: false,
    filteredUpdateMaxAffected: 100,
    meta: {},
    ...extra,
  };
}

/** A model of these tables with the spec's defaults (10000-row ceiling, 100-row window, tenant_id, default roles). */
export function gqlModel(provider: Provider, defaultSchema: string, tables: GqlTable[], overrides: Partial<GqlModel> = {}): GqlModel {
  return {
    provider,
    defaultSchema,
    tables,
    byKey: new Map(tables.map((table) => [table.key, table])),
    byName: new Map(tables.filter((table) => !table.hidden).map((table) => [table.name, table])),
    procedures: [],
    maxQueryRows: 10_000,
    defaultLimit: 100,
    tenantContextKey: 'tenant_id',
    rawSql: {enabled: false, role: 'gql-raw-sql'},
    genericTable: {enabled: false, role: 'gql-admin'},
    schemaDisplay: 'flat',
    schemaExcluded: [],
    meta: {},
    ...overrides,
  };
}
