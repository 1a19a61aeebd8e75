// A small multi-tenant schema for the mutation tests, with its GqlModel built by hand: orders
// (identity key, tenant-isolated, audit columns, soft delete, a read-only column), tags (text
// key, hard delete), lines (composite key) and items_a / items_b (twins for comparing the
// per-row and set-based batch paths).
import knex, {type Knex} from 'knex';
import type {ColumnKind, GqlColumn, GqlModel, GqlTable, UserContext} from '../../../source/gql/types.js';
import type {TestDatabase} from '../../helpers/test-databases.js';

export interface MutationFixture {
  db: Knex;
  model: GqlModel;
  table(name: string): GqlTable;
  close(): Promise<void>;
}

function column(dbName: string, kind: ColumnKind, extra: Partial<GqlColumn> = {}): GqlColumn {
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

function table(schema: string, dbName: string, columns: GqlColumn[], extra: Partial<GqlTable> = {}): GqlTable {
  return {
    key: `${schema}.${dbName}`,
    schema,
    dbName,
    name: dbName,
    columns,
    primaryKey: columns.filter((c) => c.isPrimaryKey).map((c) => c.dbName),
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

export const user = (tenant: string | undefined, sub = `user-of-${tenant}`): UserContext => ({
  claims: tenant === undefined ? {sub} : {sub, tenant_id: tenant},
  roles: [],
  auditKey: sub,
  anonymous: false,
});

export async function openMutationFixture(database: TestDatabase, drops: Array<() => Promise<void>>): Promise<MutationFixture> {
  const {connection, drop} = await database.create();
  drops.push(drop);
  let config: Knex.Config;
  let schema: string;
  if (database.kind === 'sqlite') {
    config = {client: 'better-sqlite3', connection: {filename: connection}, useNullAsDefault: true};
    schema = 'main';
  } else if (database.kind === 'postgres') {
    const url = new URL(connection);
    schema = url.searchParams.get('schema') ?? 'public';
    url.search = '';
    config = {client: 'pg', connection: url.toString(), searchPath: [schema]};
  } else {
    schema = new URL(connection).pathname.slice(1);
    config = {client: 'mysql2', connection};
  }
  const db = knex({...config, pool: {min: 0, max: 4}});
  const ts = (t: Knex.CreateTableBuilder, name: string) => (database.kind === 'sqlite' ? t.string(name, 40) : t.datetime(name, {precision: 3}));
  await db.schema.withSchema(schema).createTable('orders', (t) => {
    t.increments('id').primary();
    t.string('tenant_id', 20).notNullable();
    t.string('customer', 200).notNullable();
    t.string('status', 20).notNullable().defaultTo('new');
    t.integer('amount');
    t.string('origin', 50);
    t.string('created_by', 50);
    ts(t, 'created_on');
    t.string('updated_by', 50);
    ts(t, 'updated_on');
    ts(t, 'deleted_at').nullable();
    t.string('deleted_by', 50);
  });
  await db.schema.withSchema(schema).createTable('tags', (t) => {
    t.string('code', 40).primary();
    t.string('tenant_id', 20).notNullable();
    t.string('label', 200);
  });
  await db.schema.withSchema(schema).createTable('lines', (t) => {
    t.integer('order_id').notNullable();
    t.integer('line_no').notNullable();
    t.string('tenant_id', 20).notNullable();
    t.integer('qty');
    t.primary(['order_id', 'line_no']);
  });
  for (const name of ['items_a', 'items_b']) {
    await db.schema.withSchema(schema).createTable(name, (t) => {
      t.integer('id').primary();
      t.string('tenant_id', 20).notNullable();
      t.string('name', 200);
      t.integer('qty');
    });
  }

  const tenant = column('tenant_id', 'string', {nullable: false});
  const tables = [
    table(
      schema,
      'orders',
      [
        column('id', 'int', {isPrimaryKey: true, isIdentity: true, nullable: false}),
        tenant,
        column('customer', 'string', {nullable: false}),
        column('status', 'string', {nullable: false, hasDefault: true}),
        column('amount', 'int'),
        column('origin', 'string', {readOnly: true}),
        column('created_by', 'string', {populate: 'created-by', readOnly: true}),
        column('created_on', 'datetime', {populate: 'created-on', readOnly: true}),
        column('updated_by', 'string', {populate: 'updated-by'}),
        column('updated_on', 'datetime', {populate: 'updated-on'}),
        column('deleted_at', 'datetime'),
        column('deleted_by', 'string'),
      ],
      {tenantColumn: 'tenant_id', softDelete: {column: 'deleted_at', byColumn: 'deleted_by'}, deleteType: 'soft', filteredUpdate: true, filteredUpdateMaxAffected: 3},
    ),
    table(schema, 'tags', [column('code', 'string', {isPrimaryKey: true, nullable: false}), tenant, column('label', 'string')], {tenantColumn: 'tenant_id'}),
    table(
      schema,
      'lines',
      [column('order_id', 'int', {isPrimaryKey: true, nullable: false}), column('line_no', 'int', {isPrimaryKey: true, nullable: false}), tenant, column('qty', 'int')],
      {tenantColumn: 'tenant_id'},
    ),
    ...['items_a', 'items_b'].map((name) =>
      table(schema, name, [column('id', 'int', {isPrimaryKey: true, nullable: false}), tenant, column('name', 'string'), column('qty', 'int')], {
        tenantColumn: 'tenant_id',
        bulkBatchThreshold: name === 'items_a' ? 5 : 0,
      }),
    ),
  ];
  const model: GqlModel = {
    provider: database.kind,
    defaultSchema: schema,
    tables,
    byKey: new Map(tables.map((t) => [t.key, t])),
    byName: new Map(tables.map((t) => [t.name, t])),
    procedures: [],
    maxQueryRows: 10_000,
    defaultLimit: 100,
    tenantContextKey: 'tenant_id',
    rawSql: {enabled: false, role: 'gql-raw-sql'},
    genericTable: {enabled: false, role: 'gql-admin'},
    schemaDisplay: 'flat',
    schemaExcluded: [],
    meta: {},
  };
  return {
    db,
    model,
    table(name) {
      const found = model.byName.get(name);
      if (!found) throw new Error(`no table ${name}`);
      return found;
    },
    close: () => db.destroy(),
  };
}
