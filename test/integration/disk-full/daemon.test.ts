// The daemon (started by the built CLI, detached, its stdout and stderr its daemon.log) with its
// home on a real 3 MB tmpfs that fills up under it: it goes on starting and listing processes,
// its log drops lines and counts them on its /metrics instead of ending it (node's stderr on a
// file emits an unhandled 'error' on ENOSPC), processes.json fails without leftovers, and once the
// filler is deleted the record and the log are written again without a restart. Then a disk
// already full when a command would start the daemon: one line at once, and a normal start once
// there is room.
import {appendFileSync, existsSync, readdirSync, readFileSync, statSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {daemonPid, eventually, expectOneLineFailure, killDaemon, runCli, type Sandbox} from '../../helpers/cli.js';
import {isAlive as alive} from '../../../source/daemon/liveness.js';
import {droppedLogLines, gapLines, mountSmallDisk, sandboxOn, type SmallDisk} from './small-disk.js';

const disk = mountSmallDisk('the daemon');
const IDLE = `${process.execPath} -e "setInterval(() => {}, 1000)"`;

describe.skipIf(typeof disk === 'string')('the daemon on a disk that fills up', () => {
  const small = disk as SmallDisk;
  let sandbox: Sandbox;

  beforeAll(() => {
    sandbox = sandboxOn(small, 'wb-disk-daemon-');
  });
  afterAll(async () => {
    const pid = killDaemon(sandbox.home);
    if (pid) await eventually(() => !alive(pid), 10_000).catch(() => undefined);
    small.unmount();
    await sandbox.cleanup();
  });

  const run = (id: string) => runCli(['run', '--cmd', IDLE, '--id', id], {env: sandbox.env});
  const listed = async () => {
    const result = await runCli(['proc', 'list', '--json'], {env: sandbox.env});
    expect(result.code, result.stderr).toBe(0);
    return (JSON.parse(result.stdout) as Array<{id: string; status: string}>).map((entry) => entry.id);
  };
  const log = () => join(sandbox.home, 'daemon.log');
  const recorded = () => (JSON.parse(readFileSync(join(sandbox.home, 'processes.json'), 'utf8')) as Array<{id: string}>).map((entry) => entry.id);

  it('goes on running and listing processes while full, drops and counts log lines, and writes its record and log again once there is room', async () => {
    expect((await run('first')).code).toBe(0);
    const pid = daemonPid(sandbox.home)!;
    const metrics = await eventually(() => {
      const entry = join(sandbox.home, 'services', 'daemon.json');
      return existsSync(entry) && `${(JSON.parse(readFileSync(entry, 'utf8')) as {url: string}).url}/metrics`;
    });
    expect(await droppedLogLines(metrics, 'daemon')).toBe(0);
    // tmpfs gives a file whole 4 KB pages, and the log's last one still has room on a full disk:
    // the test fills it (appending, as any writer of the log would), so the daemon's next line needs a page.
    appendFileSync(log(), `${'#'.repeat(4095 - (statSync(log()).size % 4096))}\n`);
    small.fill();

    // Each start rewrites processes.json, which fails, and says so in the log, which drops the line.
    const second = await run('second');
    expect(second.code, second.stderr).toBe(0);
    expect(await listed()).toEqual(['first', 'second']);
    await eventually(async () => (await droppedLogLines(metrics, 'daemon')) > 0);
    expect(alive(pid)).toBe(true);
    expect(daemonPid(sandbox.home)).toBe(pid);
    expect(recorded()).toEqual(['first']);
    expect(readdirSync(sandbox.home).filter((name) => name.endsWith('.tmp'))).toEqual([]);

    small.free();
    expect((await run('third')).code).toBe(0);
    await eventually(() => recorded().includes('third'));
    expect(recorded()).toEqual(['first', 'second', 'third']);
    expect(await listed()).toEqual(['first', 'second', 'third']);
    expect((await runCli(['daemon', 'stop'], {env: sandbox.env})).code).toBe(0);
    expect(alive(pid)).toBe(false);
    // Its last lines: how many it lost, then that it stopped.
    expect(gapLines(log())).toHaveLength(1);
    expect(readFileSync(log(), 'utf8')).toMatch(
      /\nworkbench daemon: \d+ log lines? (was|were) dropped \(the disk is full\)\n(.*\n)*workbench daemon: pid \d+ stopping \(daemon stop\)\n$/,
    );
  }, 120_000);

  it('does not start on a disk already full: the command says so in one line at once; starts once there is room', async () => {
    small.fill();
    const refused = await run('fourth');
    expectOneLineFailure(refused, /^workbench: daemon not connected: it stopped at start \(exit 1\); the disk under .+ is full; free some space and retry\n$/);
    expect(existsSync(join(sandbox.home, 'daemon.pid'))).toBe(false);

    small.free();
    expect((await run('fourth')).code).toBe(0);
    expect(await listed()).toEqual(['fourth']);
    expect((await runCli(['daemon', 'stop'], {env: sandbox.env})).code).toBe(0);
  }, 60_000);
});
