// The shared multi-tenant fixture, introspected and modelled by the real pipeline, with the
// tenant filter, soft delete and audit columns set on tasks: another tenant's rows are out of
// reach of every write path, already-deleted rows too, and the tenant's own writes land.
import knex from 'knex';
import {afterAll, describe, expect, it} from 'vitest';
import {introspect} from '../../../source/gql/introspect/index.js';
import {buildModel} from '../../../source/gql/model/build-model.js';
import {runBatch} from '../../../source/gql/mutate/batch.js';
import {mutateRow} from '../../../source/gql/mutate/mutate-row.js';
import {updateWhere} from '../../../source/gql/mutate/update-where.js';
import type {GqlRequestContext, GqlTable, UserContext} from '../../../source/gql/types.js';
import {gqlDatabases} from '../../helpers/gql-databases.js';

const databases = await gqlDatabases();
const drops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const drop of drops) await drop();
});

const acme: UserContext = {claims: {sub: 'ann', tenant_id: 1}, roles: [], auditKey: 'ann', anonymous: false};
const globex: UserContext = {claims: {sub: 'gus', tenant_id: 2}, roles: [], auditKey: 'gus', anonymous: false};

describe.each(databases.map((database) => [database.kind, database] as const))('writes on the tenant fixture (%s)', (_kind, database) => {
  it.skipIf(database.unavailable !== null)('keep every write path inside the tenant and away from deleted rows', async () => {
    const fixture = await database.createTenantFixture();
    drops.push(fixture.drop);
    const db = knex(fixture.knexConfig);
    try {
      const {model} = buildModel(await introspect(db, fixture.provider));
      const tasks = model.tables.find((table) => table.dbName === 'tasks') as GqlTable;
      Object.assign(tasks, {
        tenantColumn: 'tenant_id',
        softDelete: {column: 'deleted_at', byColumn: 'deleted_by'},
        deleteType: 'soft',
        filteredUpdate: true,
        bulkBatchThreshold: 2,
      });
      for (const column of tasks.columns) {
        if (['created_by', 'created_on', 'updated_by', 'updated_on'].includes(column.dbName)) column.populate = column.dbName.replace('_on', '-on').replace('_by', '-by') as never;
      }
      const ctx = (user: UserContext): GqlRequestContext => ({model, db, user});
      const ref = `${tasks.schema}.${tasks.dbName}`;
      const acmeIds = (await db(ref).where({tenant_id: 1}).whereNull('deleted_at').orderBy('id').pluck('id')).map(Number);
      const before = await db(ref).orderBy('id');

      // Globex, by every path, on Acme's live rows: nothing.
      expect((await mutateRow(ctx(globex), tasks, {op: 'update', values: {id: acmeIds[0], title: 'x'}})).affected).toBe(0);
      expect((await mutateRow(ctx(globex), tasks, {op: 'delete', values: {id: acmeIds[0]}})).affected).toBe(0);
      expect((await mutateRow(ctx(globex), tasks, {op: 'upsert', values: {id: acmeIds[0], title: 'x', project_id: 1}})).affected).toBe(0);
      expect(
        (
          await runBatch(
            ctx(globex),
            tasks,
            acmeIds.map((id) => ({op: 'update' as const, values: {id, title: 'x'}})),
          )
        ).affected,
      ).toBe(0);
      expect(
        (
          await runBatch(
            ctx(globex),
            tasks,
            acmeIds.map((id) => ({op: 'delete' as const, values: {id}})),
          )
        ).affected,
      ).toBe(0);
      expect(await updateWhere(ctx(globex), tasks, {title: 'x'}, {id: {_in: acmeIds}})).toBe(0);
      await expect(mutateRow(ctx(globex), tasks, {op: 'insert', values: {title: 'x', project_id: 1, tenant_id: 1}})).rejects.toThrow(/pinned/);
      // The already-deleted task of Acme is out of reach of Acme too.
      expect((await mutateRow(ctx(acme), tasks, {op: 'update', values: {id: 3, title: 'back'}})).affected).toBe(0);
      expect(await db(ref).orderBy('id')).toEqual(before);

      // Acme's own writes land, audited; its delete is soft.
      expect(await updateWhere(ctx(acme), tasks, {title: 'renamed'}, {id: {_in: acmeIds}})).toBe(acmeIds.length);
      expect((await mutateRow(ctx(acme), tasks, {op: 'delete', values: {id: acmeIds[0]}})).affected).toBe(1);
      const row = await db(ref).where({id: acmeIds[0]}).first();
      expect(row).toMatchObject({title: 'renamed', deleted_by: 'ann', updated_by: 'ann'});
      expect(row.deleted_at).not.toBeNull();
    } finally {
      await db.destroy();
    }
  });
});
