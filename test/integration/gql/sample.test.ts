import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import knex, {type Knex} from 'knex';
import {afterAll, afterEach, describe, expect, it} from 'vitest';
import {expectOneLineFailure, makeSandbox, runCli, type Sandbox} from '../../helpers/cli.js';
import {CHINOOK_TABLES, gqlDatabases, snakeCase, type GqlFixture} from '../../helpers/gql-databases.js';
import {startServeProcess} from '../../helpers/serve-process.js';

// `workbench gql sample` from dist on SQLite, PostgreSQL and MariaDB: Chinook into an empty
// database; a database with tables refused in one line and left as it was; --force replacing the
// sample's tables and keeping the others; and the `try:` line it prints runs as written.

const sandbox: Sandbox = makeSandbox('wb-gql-sample-');
let fixture: GqlFixture | undefined;

afterEach(async () => {
  await fixture?.drop();
  fixture = undefined;
});

afterAll(async () => {
  await sandbox.cleanup();
});

const cli = (args: string[], env: NodeJS.ProcessEnv = sandbox.env) => runCli(args, {env, cwd: sandbox.dir, timeoutMs: 60_000});

/** Runs the `try:` line as a shell would: its `NAME=value` words as the environment, then `workbench …` (quotes are plain '…' here). */
async function runTryLine(stdout: string) {
  const match = /^try: ((?:\w+=(?:'[^']*'|\S+) )*)workbench (.+)$/m.exec(stdout);
  expect(match, stdout).not.toBeNull();
  const unquote = (word: string) => word.replace(/^'(.*)'$/, '$1');
  const env: NodeJS.ProcessEnv = {...sandbox.env};
  for (const [, key, value] of match![1].matchAll(/(\w+)=('[^']*'|\S+)/g)) env[key] = unquote(value);
  return cli(
    [...match![2].matchAll(/'[^']*'|\S+/g)].map(([word]) => unquote(word)),
    env,
  );
}

async function withDb<T>(config: Knex.Config, work: (db: Knex) => Promise<T>): Promise<T> {
  const db = knex({...config, pool: {min: 0, max: 1}});
  try {
    return await work(db);
  } finally {
    await db.destroy();
  }
}

const rowsOf = async (db: Knex, table: string) => Number(((await db(table).count({n: '*'})) as Array<{n: number | string}>)[0].n);

for (const database of await gqlDatabases()) {
  const {kind} = database;
  const name = (table: string) => (kind === 'postgres' ? snakeCase(table) : table);
  describe.skipIf(database.unavailable !== null)(`gql sample on ${kind}`, () => {
    it('loads Chinook into an empty database, refuses one with tables, --force keeps the others, and the try line answers', async () => {
      fixture = await database.createEmpty();
      const db = kind === 'sqlite' ? fixture.database : fixture.connectionString;
      await withDb(fixture.knexConfig, async (knexDb) => {
        await knexDb.schema.createTable('notes', (table) => {
          table.integer('id').primary();
          table.string('body', 20);
        });
        await knexDb('notes').insert({id: 1, body: 'mine'});
      });

      const refused = await cli(['gql', 'sample', '--db', db]);
      expectOneLineFailure(refused, /already has 1 table \(notes\); the sample goes only into an empty database — --force loads it anyway/);
      await withDb(fixture.knexConfig, async (knexDb) => {
        for (const table of CHINOOK_TABLES) expect(await knexDb.schema.hasTable(name(table))).toBe(false);
      });

      // Twice with --force: the second replaces the first (no doubled rows).
      const first = await cli(['gql', 'sample', '--db', db, '--force']);
      expect(first.code, first.stderr).toBe(0);
      const loaded = await cli(['gql', 'sample', '--db', db, '--force']);
      expect(loaded.code, loaded.stderr).toBe(0);
      expect(loaded.stdout.split('\n')[0]).toMatch(/^loaded the Chinook sample into .+: 11 tables.*, 15,607 rows in \d+/);
      await withDb(fixture.knexConfig, async (knexDb) => {
        expect(await knexDb('notes').select()).toEqual([{id: 1, body: 'mine'}]);
        expect(await rowsOf(knexDb, name('Track'))).toBe(3503);
        expect(await rowsOf(knexDb, name('InvoiceLine'))).toBe(2240);
      });

      const answered = await runTryLine(loaded.stdout);
      expect(answered.code, answered.stderr).toBe(0);
      const artists = ['AC/DC', 'Accept', 'Aerosmith', 'Alanis Morissette', 'Alice In Chains'];
      expect(JSON.parse(answered.stdout)).toEqual(
        kind === 'postgres' ? {artist: {data: artists.map((artist) => ({name: artist}))}} : {Artist: {data: artists.map((artist) => ({Name: artist}))}},
      );
    });

    it.skipIf(kind === 'sqlite')('takes the database as a URL too', async () => {
      fixture = await database.createEmpty();
      const connection = fixture.knexConfig.connection as {host: string; port: number; database: string; user: string};
      const url = `${kind === 'postgres' ? 'postgres' : 'mysql'}://${connection.user}@${connection.host}:${connection.port}/${connection.database}`;
      const loaded = await cli(['gql', 'sample', '--db', url]);
      expect(loaded.code, loaded.stderr).toBe(0);
      expect(loaded.stdout).toMatch(
        kind === 'postgres' ? /\(PostgreSQL\): 11 tables \(snake_case: album, artist, customer, …\), 15,607 rows/ : /\(MySQL\/MariaDB\): 11 tables, 15,607 rows/,
      );
      await withDb(fixture.knexConfig, async (knexDb) => expect(await rowsOf(knexDb, name('Artist'))).toBe(275));
    });
  });
}

describe('gql sample with a running serve graphql', () => {
  it('an empty schema answers with the hint over HTTP; the sample then says the server must be restarted', async () => {
    const home = join(sandbox.dir, 'served-home');
    const env = {...sandbox.env, WORKBENCH_HOME: home};
    const server = await startServeProcess({name: 'graphql', env, home, cwd: sandbox.dir});
    try {
      expect(server.output()).toContain('warning: the database has no tables: `workbench gql sample` loads the Chinook sample into it');
      const query = await cli(['gql', 'query', '{ Artist(limit: 1) { data { Name } } }'], env);
      expect(query.code).toBe(1);
      expect(query.stderr).toMatch(/^error: Cannot query field "Artist" on type "Query"\.\nhint: the database has no tables: `workbench gql sample`/);
      // It went to the server: the server logged the request.
      expect(readFileSync(join(home, 'logs', 'graphql.log'), 'utf8')).toMatch(/POST \/graphql/);
      const sample = await cli(['gql', 'sample'], env);
      expect(sample.code, sample.stderr).toBe(0);
      expect(sample.stdout).toContain(`the running serve graphql (${server.url}) read the schema at its start: restart it to serve the sample`);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    const restarted = await startServeProcess({name: 'graphql', env, home, cwd: sandbox.dir});
    try {
      expect(restarted.output()).not.toContain('no tables');
      const query = await cli(['gql', 'query', '{ Artist(limit: 1) { data { Name } } }'], env);
      expect(JSON.parse(query.stdout)).toEqual({Artist: {data: [{Name: 'AC/DC'}]}});
    } finally {
      await restarted.stop();
    }
  });
});
