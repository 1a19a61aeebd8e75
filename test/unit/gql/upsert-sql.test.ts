// The upsert statement in each database's form (SQL Server has no server here: its MERGE is
// checked as text), with the row policy guarding the existing-row branch.
import knex from 'knex';
import {afterAll, describe, expect, it} from 'vitest';
import {rowPolicy} from '../../../source/gql/policy/row-policy.js';
import {upsertStatement} from '../../../source/gql/mutate/upsert-sql.js';
import type {GqlModel, GqlTable, Provider} from '../../../source/gql/types.js';

const table = {name: 'orders', columns: [], tenantColumn: 'tenant_id', autoFilters: [], softDelete: {column: 'deleted_at'}} as unknown as GqlTable;
const model = {tenantContextKey: 'tenant_id', autoFilterBypassRole: undefined} as unknown as GqlModel;
const policy = rowPolicy(model, table, {claims: {tenant_id: 't1'}, roles: [], anonymous: false}, 'update');
const spec = {
  ref: 'dbo.orders',
  alias: 'orders',
  row: {id: 7, tenant_id: 't1', status: "x'; drop table orders; --"},
  keyColumns: ['id'],
  set: {status: "x'; drop table orders; --"},
  policy,
};

const clients: Record<Provider, string> = {sqlserver: 'mssql', postgres: 'pg', mysql: 'mysql2', sqlite: 'better-sqlite3'};
const dbs = Object.fromEntries(Object.entries(clients).map(([provider, client]) => [provider, knex({client, useNullAsDefault: true})]));
afterAll(async () => {
  for (const db of Object.values(dbs)) await db.destroy();
});

describe('upsert statements', () => {
  it('SQL Server: one MERGE, the matched branch guarded by the policy, the key returned', () => {
    const {sql, bindings} = upsertStatement(dbs.sqlserver!, 'sqlserver', spec).toSQL();
    expect(sql).toBe(
      'merge into [dbo].[orders] with (holdlock) as wb_target using (values (?, ?, ?)) as wb_source ([id], [tenant_id], [status]) on wb_target.[id] = wb_source.[id] ' +
        'when matched and ([wb_target].[tenant_id] = ? and [wb_target].[deleted_at] is null) then update set wb_target.[status] = ? ' +
        'when not matched then insert ([id], [tenant_id], [status]) values (wb_source.[id], wb_source.[tenant_id], wb_source.[status]) output inserted.[id];',
    );
    expect(bindings).toEqual([7, 't1', spec.row.status, 't1', spec.set.status]);
  });

  it('PostgreSQL and SQLite: ON CONFLICT … DO UPDATE … WHERE policy RETURNING key', () => {
    const {sql, bindings} = upsertStatement(dbs.postgres!, 'postgres', spec).toSQL();
    expect(sql).toBe(
      'insert into "dbo"."orders" ("id", "tenant_id", "status") values (?, ?, ?) on conflict ("id") do update set "status" = ? where ("orders"."tenant_id" = ? and "orders"."deleted_at" is null) returning "id"',
    );
    expect(bindings).toEqual([7, 't1', spec.row.status, spec.set.status, 't1']);
    expect(upsertStatement(dbs.sqlite!, 'sqlite', spec).toSQL().sql).toMatch(
      /^insert into `dbo`.`orders` .* on conflict \(`id`\) do update set `status` = \? where \(`orders`.`tenant_id` = \?/,
    );
  });

  it('MySQL: ON DUPLICATE KEY UPDATE with each assignment kept unless the existing row is in the policy', () => {
    const {sql, bindings} = upsertStatement(dbs.mysql!, 'mysql', spec).toSQL();
    expect(sql).toBe(
      'insert into `dbo`.`orders` (`id`, `tenant_id`, `status`) values (?, ?, ?) on duplicate key update `status` = if((`orders`.`tenant_id` = ? and `orders`.`deleted_at` is null), ?, `status`)',
    );
    expect(bindings).toEqual([7, 't1', spec.row.status, 't1', spec.set.status]);
  });

  it('with nothing to set, still touches the row (the key set to itself) so the statement reports it', () => {
    const {sql} = upsertStatement(dbs.postgres!, 'postgres', {...spec, set: {}}).toSQL();
    expect(sql).toContain('do update set "id" = excluded."id" where');
  });
});
