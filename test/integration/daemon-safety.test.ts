import {spawn} from 'node:child_process';
import {chmodSync, chownSync, mkdirSync, statSync} from 'node:fs';
import {createServer, type Server} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {cliPath, daemonPid, eventually, makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

let sandbox: Sandbox;
const cli = (args: string[], options: {timeoutMs?: number} = {}) => runCli(args, {env: sandbox.env, ...options});
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const cleanups: Array<() => void> = [];

beforeEach(() => {
  sandbox = makeSandbox();
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  await sandbox.cleanup();
});

describe('a user pattern cannot freeze the daemon', () => {
  it('answers (a+)+$ on aaaa…! at once, keeps answering ping, and names what RE2 does not support', async () => {
    // 2000 lines that make a backtracking engine take forever each.
    await cli(['run', '--cmd', `node -e "for (let i = 0; i < 2000; i++) console.log('a'.repeat(50) + '!')"`, '--id', 'evil']);
    await eventually(async () => (await cli(['proc', 'output', 'evil', '--tail', '1'])).stdout.includes('!'));
    const evil = await cli(['proc', 'output', 'evil', '--grep', '(a+)+$']);
    expect(evil.code, evil.stderr).toBe(0);
    expect(evil.stdout).toBe('');
    const matching = await cli(['proc', 'output', 'evil', '--grep', '(A+)+!$', '--tail', '2']);
    expect(matching.stdout).toBe(`${'a'.repeat(50)}!\n`.repeat(2));
    const status = JSON.parse((await cli(['daemon', 'status', '--json'])).stdout);
    expect(status).toMatchObject({running: true, pid: daemonPid(sandbox.home)});

    const lookahead = await cli(['proc', 'output', 'evil', '--grep', 'a(?=!)']);
    expect(lookahead.code).toBe(1);
    expect(lookahead.stderr).toMatch(/^workbench: invalid --grep pattern: invalid or unsupported Perl syntax: `\(\?=`.*no lookahead/);
    const backreference = await cli(['proc', 'output', 'evil', '--grep', '(a)\\1']);
    expect(backreference.stderr).toContain('invalid escape sequence: `\\1`');
  });
});

describe('the daemon socket is private', () => {
  it('lives in a 0700 directory of XDG_RUNTIME_DIR, is 0600, and moves to a per-user tmp directory for a long home', async () => {
    const runtime = join(sandbox.dir, 'run');
    mkdirSync(runtime, {mode: 0o700});
    const env = {...sandbox.env, XDG_RUNTIME_DIR: runtime};
    expect((await runCli(['daemon', 'start'], {env})).code).toBe(0);
    const {socket} = JSON.parse((await runCli(['daemon', 'status', '--json'], {env})).stdout);
    expect(socket).toMatch(new RegExp(`^${runtime}/workbench-[0-9a-f]{16}/daemon\\.sock$`));
    expect(statSync(socket).mode & 0o777).toBe(0o600);
    expect(statSync(join(socket, '..')).mode & 0o777).toBe(0o700);
    await runCli(['daemon', 'stop'], {env});

    // A runtime dir others may write to is not used.
    chmodSync(runtime, 0o777);
    expect(JSON.parse((await runCli(['daemon', 'status', '--json'], {env})).stdout).socket).toBe(join(sandbox.home, 'daemon.sock'));

    const longHome = join(sandbox.dir, 'x'.repeat(120));
    const long = {...sandbox.env, WORKBENCH_HOME: longHome};
    cleanups.push(() => void runCli(['daemon', 'stop'], {env: long}));
    const listed = await runCli(['proc', 'list'], {env: long});
    expect(listed.code, listed.stderr).toBe(0);
    const longSocket = JSON.parse((await runCli(['daemon', 'status', '--json'], {env: long})).stdout).socket;
    expect(longSocket).toMatch(new RegExp(`^${tmpdir()}/workbench-${process.getuid!()}/[0-9a-f]{16}\\.sock$`));
    expect(statSync(join(longSocket, '..')).mode & 0o777).toBe(0o700);
    expect(statSync(longSocket).mode & 0o777).toBe(0o600);
    await runCli(['daemon', 'stop'], {env: long});
  });

  it('refuses a squatted socket owned by another uid, and sends it nothing', async () => {
    mkdirSync(sandbox.home, {recursive: true, mode: 0o700});
    const socketPath = join(sandbox.home, 'daemon.sock');
    let connections = 0;
    const squatter: Server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => squatter.listen(socketPath, resolve));
    cleanups.push(() => squatter.close());
    chownSync(socketPath, 65534, 65534);

    const result = await cli(['proc', 'list']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^workbench: daemon not connected: refusing the daemon socket: socket .*daemon\.sock belongs to uid 65534, not to you \(uid 0\)/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    const status = JSON.parse((await cli(['daemon', 'status', '--json'])).stdout);
    expect(status).toMatchObject({running: false, refused: expect.stringContaining('uid 65534')});
    const text = await cli(['daemon', 'status']);
    expect(text.code).toBe(1);
    expect(text.stderr).toContain('refusing the daemon socket');
    expect(connections).toBe(0);
    // No daemon was started over it either.
    expect(daemonPid(sandbox.home)).toBeUndefined();

    // A directory someone else owns is refused the same way.
    chownSync(socketPath, 0, 0);
    chownSync(sandbox.home, 65534, 65534);
    const dir = await cli(['proc', 'list']);
    expect(dir.code).toBe(1);
    expect(dir.stderr).toContain(`directory ${sandbox.home} belongs to uid 65534`);
    expect(connections).toBe(0);
    chownSync(sandbox.home, 0, 0);
  });
});

describe('a daemon killed with SIGKILL', () => {
  it('is replaced by the next command even while it is an unreaped zombie', async () => {
    // A parent that never waits (`exec sleep`) keeps the killed daemon a zombie: kill(pid, 0) still succeeds.
    const parent = spawn('sh', ['-c', `"${process.execPath}" "${cliPath}" daemon run & exec sleep 300`], {env: sandbox.env, stdio: 'ignore'});
    cleanups.push(() => parent.kill('SIGKILL'));
    const pid = await eventually(async () => ((await cli(['daemon', 'status', '--json'])).stdout.includes('"running": true') ? daemonPid(sandbox.home) : undefined));
    process.kill(pid, 'SIGKILL');
    await eventually(() => statSync(`/proc/${pid}/stat`, {throwIfNoEntry: false}) !== undefined);

    const after = await cli(['proc', 'list']);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stderr).toContain('the daemon was not running (it had died); started a new one');
    expect(daemonPid(sandbox.home)).not.toBe(pid);
  });

  it('reports the children that outlived it by pid', async () => {
    // A child that ignores the pty's hangup survives its daemon.
    await cli(['run', '--cmd', "trap '' HUP; echo up; exec sleep 300", '--id', 'stubborn']);
    const child = JSON.parse((await cli(['proc', 'status', 'stubborn', '--json'])).stdout).process.pid as number;
    cleanups.push(() => {
      try {
        process.kill(child, 'SIGKILL');
      } catch {
        // gone
      }
    });
    process.kill(daemonPid(sandbox.home)!, 'SIGKILL');
    const after = await cli(['proc', 'list']);
    expect(after.code, after.stderr).toBe(0);
    expect(alive(child)).toBe(true);
    expect(after.stderr).toContain(`still running from before, no longer supervised: stubborn (pid ${child})`);
    const status = JSON.parse((await cli(['daemon', 'status', '--json'])).stdout);
    expect(status.survivors).toEqual([{id: 'stubborn', pid: child, command: "trap '' HUP; echo up; exec sleep 300"}]);
    expect((await cli(['daemon', 'status'])).stdout).toContain(`still running from a daemon that died, not supervised: stubborn (pid ${child})`);

    // Once it is gone it is no longer reported.
    process.kill(child, 'SIGKILL');
    await eventually(async () => JSON.parse((await cli(['daemon', 'status', '--json'])).stdout).survivors.length === 0);
  });
});

describe('a process that prints and exits at once', () => {
  it('keeps its last line, in the foreground stream and in the output ring, ten times in a row', async () => {
    for (let i = 1; i <= 10; i++) {
      const run = await cli(['run', '--fg', '--cmd', `printf 'line1\\nLAST-${i}\\n'`, '--id', `fast-${i}`]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain(`LAST-${i}`);
      const ring = await cli(['proc', 'output', `fast-${i}`]);
      expect(ring.stdout).toBe(`line1\nLAST-${i}\n`);
    }
  }, 120_000);
});
