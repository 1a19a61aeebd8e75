// The SQL stage's one Dialect interface (source/gql/dialect/): every provider has its dialect,
// an unknown one is a clear error, and the folders that moved onto it keep no provider branch of
// their own, so each database's SQL stays in its dialect's file.
import {readdirSync, readFileSync, statSync} from 'node:fs';
import {join} from 'node:path';
import knex from 'knex';
import {afterAll, describe, expect, it} from 'vitest';
import {dialectOf} from '../../../source/gql/dialect/dialect-of.js';
import type {Provider} from '../../../source/gql/types.js';

const PROVIDERS: Provider[] = ['postgres', 'mysql', 'sqlite', 'sqlserver'];
const clients: Record<Provider, string> = {sqlserver: 'mssql', postgres: 'pg', mysql: 'mysql2', sqlite: 'better-sqlite3'};
const dbs = Object.fromEntries(PROVIDERS.map((provider) => [provider, knex({client: clients[provider], useNullAsDefault: true})])) as Record<Provider, knex.Knex>;
afterAll(async () => {
  for (const db of Object.values(dbs)) await db.destroy();
});

describe('dialectOf', () => {
  it('finds the dialect of every provider the model knows', () => {
    for (const provider of PROVIDERS) expect(dialectOf(provider).provider).toBe(provider);
  });

  it('refuses an unknown provider with an error naming the ones there are', () => {
    for (const unknown of ['oracle', 'Postgres', 'toString', '']) {
      expect(() => dialectOf(unknown)).toThrow(
        expect.objectContaining({code: 'invalid_argument', message: `unknown database provider ${JSON.stringify(unknown)}: one of postgres, mysql, sqlite, sqlserver`}),
      );
    }
  });

  it('writes each database its own JSON object and quoted names', () => {
    const pairs = [{key: 'id', sql: '??', bindings: ['t0.id']}];
    const objects = Object.fromEntries(PROVIDERS.map((provider) => [provider, dialectOf(provider).jsonObject(dbs[provider], pairs).toSQL().sql]));
    expect(objects).toEqual({
      postgres: `json_build_object('id', "t0"."id")`,
      mysql: "json_object('id', `t0`.`id`)",
      sqlite: "json_object('id', `t0`.`id`)",
      sqlserver: `(select [t0].[id] as [id] for json path, without_array_wrapper, include_null_values)`,
    });
    expect(PROVIDERS.map((provider) => dialectOf(provider).quoteIdentifier('a"b`c]d'))).toEqual(['"a""b`c]d"', '`a"b``c]d`', '"a""b`c]d"', '[a"b`c]]d]']);
  });

  it('words each database its statement deadline, and knows its own deadline error from a cancel', async () => {
    const sent: string[] = [];
    // The driver's two call shapes: pg's query(text) → promise, mysql2's query({sql}, bindings, callback).
    const connection = (mariadb: boolean) => ({
      _isMariaDB: mariadb,
      query: (sql: string | {sql: string}, _bindings?: unknown, callback?: (error: unknown, rows: unknown) => void) => {
        sent.push(typeof sql === 'string' ? sql : sql.sql);
        if (callback) callback(null, []);
        return Promise.resolve();
      },
    });
    expect(await dialectOf('postgres').setStatementTimeout(connection(false), 1500)).toBe(true);
    expect(await dialectOf('mysql').setStatementTimeout(connection(true), 1500)).toBe(true);
    expect(await dialectOf('mysql').setStatementTimeout(connection(false), 1500)).toBe(true);
    expect(await dialectOf('sqlite').setStatementTimeout(connection(false), 1500)).toBe(false);
    expect(await dialectOf('sqlserver').setStatementTimeout(connection(false), 1500)).toBe(false);
    expect(sent).toEqual(['set statement_timeout = 1500', 'set session max_statement_time = 1.5', 'set session max_execution_time = 1500']);
    const pgTimeout = {code: '57014', message: 'canceling statement due to statement timeout'};
    const pgCancel = {code: '57014', message: 'canceling statement due to user request'};
    expect([pgTimeout, pgCancel, {errno: 1969}, {errno: 3024}, {errno: 1317}, undefined].map((error) => dialectOf('postgres').isStatementTimeout(error))).toEqual([
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect([pgTimeout, {errno: 1969}, {errno: 3024}, {errno: 1317}, undefined].map((error) => dialectOf('mysql').isStatementTimeout(error))).toEqual([
      false,
      true,
      true,
      false,
      false,
    ]);
  });

  it('writes each database its hand-written table names, booleans and claim locks (the outbox)', () => {
    expect(PROVIDERS.map((provider) => dialectOf(provider).quotedTableName('main', 'wb_outbox'))).toEqual([
      '"main"."wb_outbox"',
      '`main`.`wb_outbox`',
      '"wb_outbox"',
      '[main].[wb_outbox]',
    ]);
    expect(dialectOf('sqlite').quotedTableName('other', 'wb_outbox')).toBe('"other"."wb_outbox"');
    expect(PROVIDERS.map((provider) => [dialectOf(provider).storedBoolean(true), dialectOf(provider).storedBoolean(false)])).toEqual([
      [true, false],
      [1, 0],
      [1, 0],
      [1, 0],
    ]);
    expect(PROVIDERS.filter((provider) => !dialectOf(provider).transactionalDdl)).toEqual(['mysql']);
    const claims = Object.fromEntries(PROVIDERS.map((provider) => [provider, dialectOf(provider).lockSkippingLocked(dbs[provider]('t').select('id')).toSQL().sql]));
    expect(claims.postgres).toBe('select "id" from "t" for update skip locked');
    expect(claims.mysql).toBe('select `id` from `t` for update skip locked');
    // One writer: nothing to lock against.
    expect(claims.sqlite).toBe('select `id` from `t`');
  });

  it('refuses a response key that is not a GraphQL name before it reaches SQL', () => {
    expect(() => dialectOf('postgres').jsonObject(dbs.postgres, [{key: "x'); drop table t; --", sql: '1', bindings: []}])).toThrow(/not a GraphQL name/);
  });
});

// The folders whose SQL moved into the dialect (events/: into it, or into per-provider tables
// beside the outbox and the triggers), and where the provider may still be named.
const MOVED = ['source/gql/query', 'source/gql/mutate', 'source/gql/eav', 'source/gql/events'];

const PROVIDER_BRANCH = /\bprovider\s*[!=]==|switch\s*\(\s*[\w.]*provider\s*\)|\bProvider>\s*=\s*new Set/;

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(name) ? [path] : [];
  });

describe('the SQL stage reads one way', () => {
  it('keeps no provider branch in the folders that moved onto the Dialect', () => {
    const sources = MOVED.flatMap(files);
    expect(sources.length).toBeGreaterThan(20);
    const branching = sources.filter((path) => PROVIDER_BRANCH.test(readFileSync(path, 'utf8')));
    expect(branching).toEqual([]);
  });

  it('catches a branch written the usual ways', () => {
    for (const line of [
      "if (ctx.model.provider === 'mysql')",
      "provider !== 'sqlite' ? a : b",
      'switch (spec.provider) {',
      'const bulk: ReadonlySet<Provider> = new Set<Provider>([',
    ]) {
      expect(PROVIDER_BRANCH.test(line)).toBe(true);
    }
    expect(PROVIDER_BRANCH.test('dialectOf(ctx.model.provider).jsonObject(db, pairs)')).toBe(false);
  });
});

describe('the set-based batch on SQL Server (no server here: checked as text)', () => {
  it('stages into a #temporary table and updates from it joined on the key, inside the guard', () => {
    const mssql = dialectOf('sqlserver');
    const stage = mssql.stagingTable('abc');
    expect(stage).toBe('#wb_stage_abc');
    expect(mssql.createStagingTable(dbs.sqlserver, stage, ['id', 'status'], 'dbo.orders').toSQL().sql).toBe(
      'select [id], [status] into [#wb_stage_abc] from [dbo].[orders] where 1 = 0',
    );
    const update = mssql.updateFromStaging(dbs.sqlserver, {
      ref: 'dbo.orders',
      alias: 'orders',
      stage,
      keys: ['id'],
      setColumns: ['status'],
      guard: {sql: '[orders].[tenant_id] = ?', bindings: ['t1']},
    });
    expect(update.toSQL().sql).toBe(
      'update [orders] set [orders].[status] = wb_s.[status] from [dbo].[orders] as [orders] join [#wb_stage_abc] as wb_s on [orders].[id] = wb_s.[id] where [orders].[tenant_id] = ?',
    );
    expect(update.toSQL().bindings).toEqual(['t1']);
    expect(mssql.dropStagingTable(dbs.sqlserver, stage)?.toSQL().sql).toBe('drop table [#wb_stage_abc]');
  });
});
