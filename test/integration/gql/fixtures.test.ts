// The GraphQL tests' databases load on every provider: Chinook with all its rows, the tenant
// fixture with its tables, view, second schema and procedures, each in a database of its own.
import knex from 'knex';
import {afterAll, describe, expect, it} from 'vitest';
import {CHINOOK_TABLES, gqlDatabases, snakeCase, TENANT_FIXTURE, type GqlFixture} from '../../helpers/gql-databases.js';

const databases = await gqlDatabases();
const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const drop of drops) await drop();
});

async function open(fixture: GqlFixture) {
  drops.push(fixture.drop);
  return knex(fixture.knexConfig);
}

describe.each(databases.map((database) => [database.kind, database] as const))('GraphQL fixtures on %s', (kind, database) => {
  it.skipIf(database.unavailable !== null)('Chinook: 11 tables with their rows, in a database of its own', async () => {
    const fixture = await database.createChinook();
    const db = await open(fixture);
    try {
      const name = (table: string) => (kind === 'postgres' ? snakeCase(table) : table);
      const count = async (table: string) => Number((await db(name(table)).count({n: '*'}))[0]!.n);
      expect(await count('Track')).toBe(3503);
      expect(await count('PlaylistTrack')).toBe(8715);
      for (const table of CHINOOK_TABLES) expect(await db.schema.hasTable(name(table))).toBe(true);
      expect(fixture.connectionString).toMatch(
        kind === 'sqlite' ? /^Data Source=/ : kind === 'postgres' ? /^Host=127\.0\.0\.1;Port=5432;Database=wb_/ : /^Server=127\.0\.0\.1;Port=3306;Database=wb_/,
      );
    } finally {
      await db.destroy();
    }
  });

  it.skipIf(database.unavailable !== null)('tenant fixture: tables, the view, soft-deleted rows and (PostgreSQL) the billing schema', async () => {
    const fixture = await database.createTenantFixture();
    const db = await open(fixture);
    try {
      for (const table of TENANT_FIXTURE.tables) expect(await db.schema.hasTable(table)).toBe(true);
      const open = await db('open_tasks').orderBy('id').pluck('id');
      expect(open.map(Number)).toEqual([2, 4, 5, 7]);
      const deleted = await db('tasks').whereNotNull('deleted_at').orderBy('id').pluck('id');
      expect(deleted.map(Number)).toEqual([...TENANT_FIXTURE.deletedTasks]);
      if (kind === 'postgres') {
        expect(Number((await db('billing.invoices').count({n: '*'}))[0]!.n)).toBe(2);
        expect((await db.raw('select public.task_count(1) as n')).rows[0].n).toBe(3);
      }
      if (kind === 'mysql') {
        const [[rows]] = await db.raw('call tenant_tasks(2)');
        expect(rows.map((row: {id: number}) => row.id)).toEqual([5, 7]);
      }
    } finally {
      await db.destroy();
    }
  });
});
