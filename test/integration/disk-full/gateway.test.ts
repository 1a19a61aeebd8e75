// `workbench serve gateway` (the built CLI) with its home on a real 3 MB tmpfs that fills up under
// it: posting to a channel answers 507 disk_full, the channel list and the channel's feed (the
// front's answers, counted in the log) 200, the request log drops lines and counts them on
// /metrics instead of ending the server, and once the filler is deleted the same post succeeds
// without a restart — every acknowledged item in a store that passes integrity_check. Then a disk
// already full at start: one line, exit 1, and a normal start once there is room.
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {eventually, runCli, type Sandbox} from '../../helpers/cli.js';
import {startGatewayProcess, type GatewayProcess} from '../../helpers/gateway-process.js';
import {droppedLogLines, expectOneLineDiskFull, gapLines, mountSmallDisk, readStore, sandboxOn, type SmallDisk} from './small-disk.js';

const disk = mountSmallDisk('the gateway');
const DISK_FULL = {error: {code: 'disk_full', message: 'the server’s disk is full; free some space and retry'}};

describe.skipIf(typeof disk === 'string')('the gateway on a disk that fills up', () => {
  const small = disk as SmallDisk;
  let sandbox: Sandbox;
  let server: GatewayProcess | undefined;
  let channel: {id: string; write_token: string};
  const acknowledged: string[] = [];

  beforeAll(() => {
    sandbox = sandboxOn(small, 'wb-disk-gateway-');
  });
  afterAll(async () => {
    await server?.stop();
    small.unmount();
    await sandbox.cleanup();
  });

  const start = async () => (server = await startGatewayProcess({env: sandbox.env, home: sandbox.home, project: sandbox.dir, feeds: []}));
  /** A post to the channel: 201 (then acknowledged) or 507 disk_full, nothing else. */
  const post = async (title: string) => {
    const response = await fetch(`${server!.url}/api/channels/${channel.id}/items`, {
      method: 'POST',
      headers: {'content-type': 'application/json', authorization: `Bearer ${channel.write_token}`},
      body: JSON.stringify({title, description: 'd'.repeat(300)}),
    });
    if (response.status === 201) acknowledged.push(title);
    else expect({status: response.status, body: await response.json()}).toEqual({status: 507, body: DISK_FULL});
    return response.status;
  };
  const read = async () => {
    const list = await fetch(`${server!.url}/api/channels`);
    expect(list.status).toBe(200);
    expect(await list.json()).toEqual([expect.objectContaining({id: channel.id})]);
    const feed = await fetch(`${server!.url}/${channel.id}`);
    expect(feed.status).toBe(200);
    return feed.text();
  };

  it('answers posts 507 disk_full and reads 200 while full, drops and counts log lines, and takes posts again once there is room', async () => {
    await start();
    const created = await fetch(`${server!.url}/api/channels`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({title: 'Deploys'})});
    expect(created.status).toBe(201);
    channel = (await created.json()) as typeof channel;
    expect(await post('before the disk filled')).toBe(201);
    small.fill();
    let refused: string | undefined;
    for (let index = 0; index < 2000 && refused === undefined; index++) {
      const title = `item ${index}`;
      if ((await post(title)) === 507) refused = title;
    }
    expect(refused, 'no post was refused on the full disk').toBeDefined();
    const metrics = `${server!.url}/metrics`;
    let dropped = 0;
    for (let round = 0; round < 1000 && dropped === 0; round++) {
      await read();
      await post(`more ${round}`);
      dropped = await droppedLogLines(metrics, 'gateway');
    }
    expect(dropped).toBeGreaterThan(0);
    expect(server!.child.exitCode).toBeNull();
    expect((await fetch(`${server!.url}/health`)).status).toBe(200);
    expect(server!.output()).toMatch(/warning: .*gateway\.log: the disk is full; log lines are dropped/);

    small.free();
    expect(await post(refused!)).toBe(201);
    expect(await read()).toContain(`<title>${refused}</title>`);
    const log = join(sandbox.home, 'logs', 'gateway.log');
    await eventually(() => gapLines(log).length > 0);

    expect(await server!.stop()).toBe(0);
    const store = await readStore(join(sandbox.home, 'gateway.sqlite'), (db) => db('gateway_channel_items').pluck('title'));
    expect(store.integrity).toBe('ok');
    expect(store.result).toEqual(expect.arrayContaining(acknowledged));
    // A refused write left nothing behind.
    expect(store.result).toHaveLength(acknowledged.length);
  }, 120_000);

  it('does not start on a disk already full: exit 1 with one line; starts with its data once there is room', async () => {
    small.fill();
    const refused = await runCli(['serve', 'gateway', '--port', '0'], {env: sandbox.env, cwd: sandbox.dir});
    expectOneLineDiskFull(refused.code, refused.stdout + refused.stderr);

    small.free();
    await start();
    expect(await read()).toContain('<title>before the disk filled</title>');
    expect(await server!.stop()).toBe(0);
  }, 60_000);
});
