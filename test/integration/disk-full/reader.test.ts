// `workbench serve reader` (the built CLI) with its home on a real 3 MB tmpfs that fills up under
// it: writes answer 507 disk_full, reads 200, the request log drops lines and counts them on
// /metrics instead of ending the server, and once the filler is deleted the same write succeeds
// without a restart — every acknowledged list in a store that passes integrity_check. Then a disk
// already full at start: one line, exit 1, and a normal start once there is room.
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {eventually, runCli, type Sandbox} from '../../helpers/cli.js';
import {startServeProcess, type ServeProcess} from '../../helpers/serve-process.js';
import {droppedLogLines, expectOneLineDiskFull, gapLines, mountSmallDisk, readStore, sandboxOn, type SmallDisk} from './small-disk.js';

const disk = mountSmallDisk('the reader');
const DISK_FULL = {error: {code: 'disk_full', message: 'the server’s disk is full; free some space and retry'}};

describe.skipIf(typeof disk === 'string')('the reader on a disk that fills up', () => {
  const small = disk as SmallDisk;
  let sandbox: Sandbox;
  let server: ServeProcess | undefined;
  const acknowledged: string[] = [];

  beforeAll(() => {
    sandbox = sandboxOn(small, 'wb-disk-reader-');
  });
  afterAll(async () => {
    await server?.stop();
    small.unmount();
    await sandbox.cleanup();
  });

  const start = async () => (server = await startServeProcess({name: 'reader', env: sandbox.env, home: sandbox.home, cwd: sandbox.dir}));
  const post = (title: string) =>
    fetch(`${server!.url}/api/v1/lists`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({title, visibility: 'public'})});
  /** A write: 201 (then acknowledged) or 507 disk_full, nothing else. */
  const write = async (title: string) => {
    const response = await post(title);
    if (response.status === 201) acknowledged.push(title);
    else expect({status: response.status, body: await response.json()}).toEqual({status: 507, body: DISK_FULL});
    return response.status;
  };
  const read = async () => {
    const response = await fetch(`${server!.url}/api/v1/lists`);
    expect(response.status).toBe(200);
    return ((await response.json()) as Array<{title: string}>).map((list) => list.title);
  };

  it('answers writes 507 disk_full and reads 200 while full, drops and counts log lines, and writes again once there is room', async () => {
    await start();
    expect(await write('before the disk filled')).toBe(201);
    small.fill();
    // SQLite may still have room in pages it holds: writes go on until it has none.
    let refused: string | undefined;
    for (let index = 0; index < 2000 && refused === undefined; index++) {
      const title = `list ${index} ${'x'.repeat(150)}`;
      if ((await write(title)) === 507) refused = title;
    }
    expect(refused, 'no write was refused on the full disk').toBeDefined();
    // The log's last page takes lines still; requests go on until it is full too and lines are dropped.
    const metrics = `${server!.url}/metrics`;
    let dropped = 0;
    for (let round = 0; round < 1000 && dropped === 0; round++) {
      expect(await read()).toEqual(expect.arrayContaining(acknowledged));
      await write(`more ${round} ${'y'.repeat(150)}`);
      dropped = await droppedLogLines(metrics, 'reader');
    }
    expect(dropped).toBeGreaterThan(0);
    expect(server!.child.exitCode).toBeNull();
    expect((await fetch(`${server!.url}/api/v1/health`)).status).toBe(200);
    expect(server!.output()).toMatch(/warning: .*reader\.log: the disk is full; log lines are dropped/);

    small.free();
    expect(await write(refused!)).toBe(201);
    expect(await read()).toEqual(expect.arrayContaining(acknowledged));
    // The log takes lines again, the first saying how many it lost.
    const log = join(sandbox.home, 'logs', 'reader.log');
    await eventually(() => gapLines(log).length > 0);
    expect(JSON.parse(gapLines(log).at(-1)!)).toMatchObject({level: 40, msg: expect.stringMatching(/^\d+ log lines? (was|were) dropped \(the disk is full\)$/)});
    // The disk_full lines name the driver's fault, never the statement and its values (a list's token is one).
    const lines = readFileSync(log, 'utf8');
    expect(lines).toMatch(/disk_full: /);
    expect(lines).not.toMatch(/insert into/i);

    expect(await server!.stop()).toBe(0);
    const store = await readStore(join(sandbox.home, 'reader.sqlite'), (db) => db('lists').pluck('title'));
    expect(store.integrity).toBe('ok');
    expect(store.result).toEqual(expect.arrayContaining(acknowledged));
    // A refused write left nothing behind.
    expect(store.result).toHaveLength(acknowledged.length);
  }, 120_000);

  it('does not start on a disk already full: exit 1 with one line; starts with its data once there is room', async () => {
    small.fill();
    const refused = await runCli(['serve', 'reader', '--port', '0'], {env: sandbox.env, cwd: sandbox.dir});
    expectOneLineDiskFull(refused.code, refused.stdout + refused.stderr);

    small.free();
    await start();
    expect(await read()).toEqual(expect.arrayContaining(acknowledged));
    expect(await server!.stop()).toBe(0);
  }, 60_000);
});
