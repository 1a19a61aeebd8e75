import {spawn, type ChildProcess} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, resolve} from 'node:path';
import {expect} from 'vitest';
import {isAlive} from '../../source/daemon/liveness.js';

export const repoRoot = resolve(import.meta.dirname, '../..');
export const cliPath = join(repoRoot, 'dist/source/cli.js');

export interface Sandbox {
  home: string;
  config: string;
  dir: string;
  env: NodeJS.ProcessEnv;
  /** Stops the sandbox's daemon (if any) and removes its files. */
  cleanup(): Promise<void>;
}

/** A private WORKBENCH_HOME and XDG_CONFIG_HOME so tests never share a daemon or touch the real home. */
export function makeSandbox(prefix = 'wb-test-'): Sandbox {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const home = join(dir, 'home');
  const config = join(dir, 'config');
  const env: NodeJS.ProcessEnv = {...process.env, WORKBENCH_HOME: home, XDG_CONFIG_HOME: config, HOME: dir, FORCE_COLOR: '0'};
  delete env.NODE_OPTIONS;
  // The daemon socket then lives in the sandbox's home; a test that wants the runtime dir sets its own.
  delete env.XDG_RUNTIME_DIR;
  return {
    home,
    config,
    dir,
    env,
    async cleanup() {
      // Gone before its files are: a daemon still writing into the home would race the removal.
      await stopDaemon(home);
      // A process the command handed work to may still write its last line after the command has
      // exited ($BROWSER logs the callback page the CLI answered just before it quit): retried, the
      // removal takes a file that appeared between reading a folder and removing it (ENOTEMPTY).
      rmSync(dir, {recursive: true, force: true, maxRetries: 10, retryDelay: 50});
    },
  };
}

export function daemonPid(home: string): number | undefined {
  try {
    return Number.parseInt(readFileSync(join(home, 'daemon.pid'), 'utf8'), 10) || undefined;
  } catch {
    return undefined;
  }
}

export function killDaemon(home: string, signal: NodeJS.Signals = 'SIGTERM'): number | undefined {
  const pid = daemonPid(home);
  if (pid) {
    try {
      process.kill(pid, signal);
    } catch {
      // gone
    }
  }
  return pid;
}

/**
 * Whether the process still runs. A daemon is detached, so once it exits it is a zombie until
 * init reaps it, which on some machines takes a second or more; `kill(pid, 0)` still answers
 * for a zombie, so the product's own check (a zombie is dead) is asked instead.
 */
export function processRunning(pid: number): boolean {
  return isAlive(pid);
}

/** SIGTERM to the home's daemon, and a wait (bounded: 10 s) until its process is gone. */
async function stopDaemon(home: string): Promise<void> {
  const pid = killDaemon(home);
  const deadline = Date.now() + 10_000;
  while (pid && processRunning(pid) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 20));
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI to completion (bounded: a hung command fails the test instead of hanging it). */
export function runCli(args: string[], options: {env: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number; input?: string}): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], {env: options.env, cwd: options.cwd ?? repoRoot, stdio: ['pipe', 'pipe', 'pipe']});
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`workbench ${args.join(' ')} did not finish within ${options.timeoutMs ?? 20000} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 20000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({code, stdout, stderr});
    });
    child.stdin.end(options.input ?? '');
  });
}

/** A user's mistake: exit 1 and exactly one line on stderr, matching `pattern`, with no stack. */
export function expectOneLineFailure(result: CliResult, pattern: RegExp, what = ''): void {
  expect(result.code, `${what}: ${result.stdout}${result.stderr}`).toBe(1);
  expect(result.stderr).toMatch(/^workbench: .+\n$/);
  expect(result.stderr).toMatch(pattern);
  expect(result.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
}

/** Runs a command with --json and parses its answer; a failure throws with its stderr. */
export async function runCliJson<T>(args: string[], options: Parameters<typeof runCli>[1]): Promise<T> {
  const result = await runCli([...args, '--json'], options);
  if (result.code !== 0) throw new Error(`workbench ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

export function spawnCli(args: string[], options: {env: NodeJS.ProcessEnv; cwd?: string}): ChildProcess {
  return spawn(process.execPath, [cliPath, ...args], {env: options.env, cwd: options.cwd ?? repoRoot, stdio: ['pipe', 'pipe', 'pipe']});
}

/** What `eventually` returns: the check's first truthy value. */
type Truthy<T> = Exclude<T, null | undefined | false | 0 | ''>;

/** Polls until `check` returns a truthy value (or throws the last failure after `timeoutMs`). */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 15000, intervalMs = 100): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value) return value as Truthy<T>;
    } catch (error) {
      lastError = error;
    }
    await new Promise((done) => setTimeout(done, intervalMs));
  }
  throw lastError ?? new Error('condition not met in time');
}
