// `workbench serve graphql` (the built CLI) over a SQLite database on a real 3 MB tmpfs that fills
// up under it: an insert answers the GraphQL error `extensions.code: "disk_full"`, queries answer
// their data, the request log drops lines and counts them on /metrics instead of ending the
// server, and once the filler is deleted the same insert succeeds without a restart — every
// acknowledged row in a database that passes integrity_check. Then a disk already full at start:
// one line (beside the DisableAuth warning), exit 1, and a normal start once there is room.
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import knex from 'knex';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {eventually, runCli, type Sandbox} from '../../helpers/cli.js';
import {startServeProcess, type ServeProcess} from '../../helpers/serve-process.js';
import {droppedLogLines, expectOneLineDiskFull, gapLines, mountSmallDisk, readStore, sandboxOn, type SmallDisk} from './small-disk.js';

const disk = mountSmallDisk('the GraphQL server');

interface GraphqlAnswer {
  data?: {notes?: unknown} | null;
  errors?: Array<{message: string; extensions?: {code?: string}}>;
}

describe.skipIf(typeof disk === 'string')('the GraphQL server on a disk that fills up', () => {
  const small = disk as SmallDisk;
  let sandbox: Sandbox;
  let database: string;
  let server: ServeProcess | undefined;
  const acknowledged: string[] = [];

  beforeAll(async () => {
    sandbox = sandboxOn(small, 'wb-disk-graphql-');
    database = join(small.dir, 'notes.sqlite');
    const db = knex({client: 'better-sqlite3', connection: {filename: database}, useNullAsDefault: true});
    await db.schema.createTable('notes', (table) => {
      table.increments('id');
      table.text('body').notNullable();
    });
    await db.destroy();
    writeFileSync(
      join(sandbox.dir, 'appsettings.json'),
      JSON.stringify({ConnectionStrings: {gqlservice: `Data Source=${database}`}, GqlService: {Provider: 'sqlite', DisableAuth: true}}),
    );
  });
  afterAll(async () => {
    await server?.stop();
    small.unmount();
    await sandbox.cleanup();
  });

  const start = async () => (server = await startServeProcess({name: 'graphql', env: sandbox.env, home: sandbox.home, cwd: sandbox.dir}));
  const ask = async (query: string, variables?: Record<string, unknown>) => {
    const response = await fetch(`${server!.url}/graphql`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({query, variables})});
    expect(response.status).toBe(200);
    return (await response.json()) as GraphqlAnswer;
  };
  /** An insert: its id (then acknowledged) or the disk_full error, nothing else. */
  const insert = async (body: string) => {
    const answer = await ask('mutation ($body: String!) { notes(insert: {body: $body}) }', {body});
    if (answer.errors === undefined) {
      acknowledged.push(body);
      return 'inserted';
    }
    expect(answer.errors).toEqual([expect.objectContaining({message: 'the database’s disk is full', extensions: expect.objectContaining({code: 'disk_full'})})]);
    return 'disk_full';
  };
  const read = async () => {
    const answer = await ask('{ notes(limit: -1) { data { body } } }');
    expect(answer.errors).toBeUndefined();
    return (answer.data!.notes as {data: Array<{body: string}>}).data.map((row) => row.body);
  };

  it('answers inserts disk_full and queries their data while full, drops and counts log lines, and inserts again once there is room', async () => {
    await start();
    expect(await insert('before the disk filled')).toBe('inserted');
    small.fill();
    let refused: string | undefined;
    for (let index = 0; index < 5000 && refused === undefined; index++) {
      const body = `note ${index} ${'x'.repeat(500)}`;
      if ((await insert(body)) === 'disk_full') refused = body;
    }
    expect(refused, 'no insert was refused on the full disk').toBeDefined();
    const metrics = `${server!.url}/metrics`;
    let dropped = 0;
    for (let round = 0; round < 1000 && dropped === 0; round++) {
      expect(await read()).toEqual(expect.arrayContaining(acknowledged));
      await insert(`more ${round}`);
      dropped = await droppedLogLines(metrics, 'graphql');
    }
    expect(dropped).toBeGreaterThan(0);
    expect(server!.child.exitCode).toBeNull();
    expect((await fetch(`${server!.url}/_workbench/health`)).status).toBe(200);
    expect(server!.output()).toMatch(/warning: .*graphql\.log: the disk is full; log lines are dropped/);

    small.free();
    expect(await insert(refused!)).toBe('inserted');
    expect(await read()).toEqual(expect.arrayContaining(acknowledged));
    const log = join(sandbox.home, 'logs', 'graphql.log');
    await eventually(() => gapLines(log).length > 0);

    expect(await server!.stop()).toBe(0);
    const store = await readStore(database, (db) => db('notes').pluck('body'));
    expect(store.integrity).toBe('ok');
    expect(store.result).toEqual(expect.arrayContaining(acknowledged));
    // A refused insert left nothing behind.
    expect(store.result).toHaveLength(acknowledged.length);
  }, 180_000);

  it('does not start on a disk already full: exit 1 with one line; starts with its data once there is room', async () => {
    small.fill();
    const refused = await runCli(['serve', 'graphql', '--port', '0'], {env: sandbox.env, cwd: sandbox.dir});
    expectOneLineDiskFull(refused.code, refused.stdout + refused.stderr);

    small.free();
    await start();
    expect(await read()).toEqual(expect.arrayContaining(acknowledged));
    expect(await server!.stop()).toBe(0);
  }, 60_000);
});
