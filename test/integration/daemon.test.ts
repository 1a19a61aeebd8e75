import {execSync} from 'node:child_process';
import {existsSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {daemonPid, eventually, killDaemon, makeSandbox, processRunning, repoRoot, runCli, type Sandbox} from '../helpers/cli.js';

let sandbox: Sandbox;
const cli = (args: string[], options: {cwd?: string; timeoutMs?: number} = {}) => runCli(args, {env: sandbox.env, ...options});

async function listProcesses() {
  const result = await cli(['proc', 'list', '--json']);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Array<{id: string; status: string; exitCode?: number | null; pid?: number; alertCount: number}>;
}

beforeEach(() => {
  sandbox = makeSandbox();
});

afterEach(async () => {
  await sandbox.cleanup();
});

describe('daemon and supervised processes', () => {
  it('starts a background process that a second client sees, with its output', async () => {
    const started = await cli(['run', '--cmd', 'echo hello-from-pty; sleep 30', '--id', 'greeter']);
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toMatch(/started greeter \(pid \d+\)/);
    expect(started.stderr).toContain('started the daemon');

    const processes = await listProcesses();
    expect(processes.map((p) => [p.id, p.status])).toEqual([['greeter', 'running']]);
    const output = await eventually(async () => {
      const result = await cli(['proc', 'output', 'greeter']);
      return result.stdout.includes('hello-from-pty') ? result.stdout : undefined;
    });
    expect(output).toContain('hello-from-pty');

    const table = await cli(['proc', 'list']);
    expect(table.stdout).toMatch(/greeter\s+running\s+\d+/);
    // `proc` alone is `proc list`.
    expect((await cli(['proc'])).stdout).toMatch(/^ID\s+STATUS.*\ngreeter\s+running\s+\d+/);

    const stopped = await cli(['proc', 'stop', 'greeter']);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stdout).toContain('greeter: stopped');
  });

  it('shows a command that does not exist as exited 127 with an alert saying why', async () => {
    await cli(['run', '--cmd', 'definitely-not-a-command-xyz --flag', '--id', 'missing']);
    const info = await eventually(async () => (await listProcesses()).find((p) => p.id === 'missing' && p.status === 'exited'));
    expect(info.exitCode).toBe(127);
    const table = await cli(['proc', 'list']);
    expect(table.stdout).toMatch(/missing\s+exited 127/);
    const errors = await cli(['get-errors', '--raw']);
    const parsed = JSON.parse(errors.stdout) as Array<{source: string; category: string; message: string}>;
    const alert = parsed.find((entry) => entry.source === 'process:missing');
    expect(alert?.category).toBe('command not found');
    expect(alert?.message).toContain('definitely-not-a-command-xyz');
  });

  it('runs in the foreground with live output and exits with the process exit code', async () => {
    const result = await cli(['run', '--fg', '--cmd', 'echo line-one; echo line-two; exit 3', '--id', 'fg']);
    expect(result.stdout).toContain('line-one');
    expect(result.stdout).toContain('line-two');
    expect(result.stderr).toContain('fg exited 3');
    expect(result.code).toBe(3);
  });

  it('restarts a process under the same id and counts the restart', async () => {
    await cli(['run', '--cmd', 'echo run; sleep 30', '--id', 'again']);
    const restarted = await cli(['proc', 'restart', 'again', '--json']);
    expect(restarted.code, restarted.stderr).toBe(0);
    const info = JSON.parse(restarted.stdout).process;
    expect(info).toMatchObject({id: 'again', status: 'running', restarts: 1});
  });

  it('answers unknown ids and bad flags with one clear line and exit 1', async () => {
    // Independent commands: run side by side (the first to reach the daemon starts it, once).
    const [unknown, unknownScript, since, limit, rawLimit, grep, both] = await Promise.all([
      cli(['proc', 'output', 'nope']),
      cli(['run', 'no-such-script'], {cwd: sandbox.dir}),
      cli(['get-errors', '--since', 'yesterday-ish']),
      cli(['get-errors', '--limit', '-5']),
      cli(['get-errors', '--raw', '--limit', 'lots']),
      cli(['proc', 'output', 'nope', '--grep', '(']),
      cli(['run', 'dev', '--cmd', 'true']),
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('process "nope" not found');
    expect(unknown.stderr).not.toMatch(/\n\s+at /);

    expect(unknownScript.code).toBe(1);
    expect(unknownScript.stderr).toContain('script "no-such-script" not found');

    expect(since.code).toBe(1);
    expect(since.stderr).toMatch(/since/i);
    expect(since.stderr).not.toMatch(/\n\s+at /);

    expect(limit.code).toBe(1);
    expect(limit.stderr).toContain('--limit');

    expect(rawLimit.code).toBe(1);
    expect(JSON.parse(rawLimit.stdout)).toEqual({error: expect.stringContaining('--limit')});

    expect(grep.code).toBe(1);

    expect(both.code).toBe(1);
    expect(both.stderr).toContain('not both');
  });

  it('keeps memory bounded when a process prints 100 MB', async () => {
    await cli(['run', '--cmd', 'head -c 100000000 /dev/zero | tr "\\0" "x" | fold -w 1000', '--id', 'flood']);
    await eventually(async () => (await listProcesses()).find((p) => p.id === 'flood' && p.status !== 'running'), 120_000, 500);
    const status = JSON.parse((await cli(['proc', 'status', 'flood', '--json'])).stdout).process;
    expect(status.outputBytes).toBeGreaterThan(100_000_000);
    const output = await cli(['proc', 'output', 'flood']);
    expect(output.stdout.length).toBeLessThanOrEqual(512 * 1024);
    expect(output.stdout.length).toBeGreaterThan(100_000);
    const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${daemonPid(sandbox.home)}/status`, 'utf8'))![1]) * 1024;
    expect(rss).toBeLessThan(400 * 1024 * 1024);
  }, 180_000);

  it('survives binary, invalid UTF-8 and coloured output, matching errors without the colour codes', async () => {
    const script = join(sandbox.dir, 'noisy.sh');
    writeFileSync(
      script,
      [
        "printf '\\377\\376\\000\\001binary\\200\\n'",
        'head -c 2000 /dev/urandom',
        "printf '\\n\\033[31mError: EADDRINUSE: address already in use :::3000\\033[0m\\n'",
        'sleep 30',
      ].join('\n'),
    );
    await cli(['run', '--cmd', `sh ${script}`, '--id', 'noisy']);
    const alert = await eventually(async () => {
      const parsed = JSON.parse((await cli(['get-errors', '--raw', '--process-id', 'noisy'])).stdout) as Array<{message: string; category: string}>;
      return parsed.find((entry) => entry.message.includes('EADDRINUSE'));
    });
    expect(alert.message).not.toContain('\x1b');
    const output = await cli(['proc', 'output', 'noisy', '--grep', 'EADDRINUSE']);
    expect(output.stdout).toContain('address already in use');
    expect(output.stdout).not.toContain('\x1b[31m');
    expect((await listProcesses())[0].status).toBe('running');
  });

  it('clears a process compile errors when the same process reports a successful build', async () => {
    const script = join(sandbox.dir, 'build.sh');
    writeFileSync(
      script,
      [
        "echo \"src/app.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.\"",
        // The build succeeds once the test has seen the error (a fixed sleep raced a loaded machine).
        `while [ ! -e ${join(sandbox.dir, 'rebuild')} ]; do sleep 0.1; done`,
        "echo 'Found 0 errors. Watching for file changes.'",
        'sleep 30',
      ].join('\n'),
    );
    await cli(['run', '--cmd', `sh ${script}`, '--id', 'tsc']);
    await eventually(async () => JSON.parse((await cli(['get-errors', '--raw'])).stdout).some((e: {category: string}) => e.category === 'TS2322'));
    writeFileSync(join(sandbox.dir, 'rebuild'), '');
    await eventually(async () => JSON.parse((await cli(['get-errors', '--raw'])).stdout).length === 0);
  });

  it('a daemon whose home is deleted stops, with its processes', async () => {
    await cli(['run', '--cmd', 'sleep 300', '--id', 'orphan']);
    const pid = daemonPid(sandbox.home)!;
    const child = (await listProcesses())[0].pid!;
    // The daemon notices at once (it watches its pid file) and stops while `rm -r` is still at work:
    // it must write nothing more into the home, or the removal finds the folder refilled (ENOTEMPTY).
    rmSync(sandbox.home, {recursive: true, force: true});
    await eventually(() => !processRunning(pid) && !processRunning(child), 20_000, 50);
    expect(existsSync(sandbox.home)).toBe(false);
  }, 30_000);

  it('never runs two daemons for one home, and recovers from a daemon killed with SIGKILL', async () => {
    const starts = await Promise.all([cli(['daemon', 'start']), cli(['daemon', 'start']), cli(['proc', 'list']), cli(['get-errors']), cli(['daemon', 'start'])]);
    for (const result of starts) expect(result.code, result.stderr).toBe(0);
    const pid = daemonPid(sandbox.home)!;
    const ps = await runCli(['daemon', 'status', '--json'], {env: sandbox.env});
    expect(JSON.parse(ps.stdout)).toMatchObject({running: true, pid});
    const daemons = execSync(`pgrep -af "${repoRoot}/dist/source/cli.js daemon run" || true`, {encoding: 'utf8'});
    const ours = daemons
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => Number(line.split(' ')[0]))
      .filter((candidate) => {
        try {
          return readFileSync(`/proc/${candidate}/environ`, 'utf8').includes(`WORKBENCH_HOME=${sandbox.home}\0`);
        } catch {
          return false;
        }
      });
    expect(ours).toEqual([pid]);

    killDaemon(sandbox.home, 'SIGKILL');
    await eventually(() => !processRunning(pid), 15_000, 20);
    const after = await cli(['proc', 'list']);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stderr).toContain('the daemon was not running');
    expect(daemonPid(sandbox.home)).not.toBe(pid);

    const stop = await cli(['daemon', 'stop']);
    expect(stop.stdout).toContain('stopped daemon');
    const status = await cli(['daemon', 'status']);
    expect(status.stdout).toContain('not running');
  });
});
