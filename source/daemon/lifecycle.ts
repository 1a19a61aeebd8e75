/** The clients' side of the daemon's lifecycle: connect, start it detached when it is not running, status, stop. The daemon's own side is run-daemon.ts. */
import {spawn, type ChildProcess} from 'node:child_process';
import {closeSync, existsSync, openSync, readFileSync, statfsSync, statSync, unlinkSync} from 'node:fs';
import {join} from 'node:path';
import {cliEntry} from '../core/entry.js';
import {WorkbenchError} from '../core/errors.js';
import {fsFault, fsReason} from '../core/fs-reason.js';
import {daemonLogPath, daemonPidPath, daemonSocketPath, ensureHome, workbenchHome} from '../core/paths.js';
import {DaemonClient} from './client.js';
import {isAlive} from './liveness.js';
import type {SurvivingProcess} from './protocol/daemon.js';
import {UntrustedSocketError} from './socket-guard.js';

const START_TIMEOUT_MS = 10_000;

export interface PidFile {
  pid: number;
  /** The holder's start time (Linux), so a reused pid is not taken for the daemon. */
  startTime?: string;
}

/** `<pid>\n<start time>\n`; the first line alone is enough for scripts. */
export function readPidFile(home: string): PidFile | undefined {
  try {
    const [first, second] = readFileSync(daemonPidPath(home), 'utf8').split('\n');
    const pid = Number.parseInt(first ?? '', 10);
    return Number.isFinite(pid) && pid > 0 ? {pid, startTime: second?.trim() || undefined} : undefined;
  } catch {
    return undefined;
  }
}

export function readPid(home: string): number | undefined {
  return readPidFile(home)?.pid;
}

/** The lock holder runs (a zombie or a stranger with a reused pid does not count). */
export function holderAlive(holder: PidFile | undefined): holder is PidFile {
  return holder !== undefined && isAlive(holder.pid, holder.startTime);
}

export function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Not there.
  }
}

export interface DaemonConnection {
  client: DaemonClient;
  /** Set when this call had to start the daemon; `recovered` when an earlier one had died. */
  started: boolean;
  recovered: boolean;
  /** When started: processes the dead daemon left running, by pid. */
  survivors: SurvivingProcess[];
}

/** `ticker (pid 4242), api (pid 4250)` */
export function describeSurvivors(survivors: SurvivingProcess[]): string {
  return survivors.map((survivor) => `${survivor.id} (pid ${survivor.pid})`).join(', ');
}

/** Connects to the home's daemon, starting it when it is not running. */
export async function ensureDaemon(options: {autostart?: boolean} = {}): Promise<DaemonConnection> {
  const home = workbenchHome();
  const socketPath = daemonSocketPath(home);
  try {
    return {client: await DaemonClient.connect(socketPath), started: false, recovered: false, survivors: []};
  } catch (error) {
    if (options.autostart === false || error instanceof UntrustedSocketError) throw error;
  }
  const holder = readPidFile(home);
  const alive = holderAlive(holder);
  const recovered = existsSync(socketPath) || (holder !== undefined && !alive);
  // A daemon starting up right now (its pid file is there) or another client's spawn in flight
  // (the spawn lock is taken) is waited for, not raced: one spawn per home at a time.
  ensureHome();
  // A daemon that fails at start says why in its log, which a full disk keeps empty: its exit is watched.
  let failed: string | undefined;
  if (!alive && takeSpawnLock(home)) {
    startDetached(home).once('exit', (code, signal) => {
      // 0: another daemon took the lock first, and is waited for.
      if (code !== 0) failed = signal ?? `exit ${code}`;
    });
  }
  const deadline = Date.now() + START_TIMEOUT_MS;
  let lastError: unknown;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    let client: DaemonClient;
    try {
      client = await DaemonClient.connect(socketPath);
    } catch (error) {
      if (error instanceof UntrustedSocketError) throw error;
      if (failed !== undefined) {
        // The next try spawns again at once, without waiting out the lock.
        removeQuietly(join(home, 'daemon.spawn.lock'));
        throw new WorkbenchError('daemon_not_connected', `daemon not connected: it stopped at start (${failed}); ${startFailureHint(home)}`);
      }
      lastError = error;
      continue;
    }
    const {survivors} = await client.call('ping');
    return {client, started: true, recovered, survivors};
  }
  throw new WorkbenchError(
    'daemon_not_connected',
    `daemon not connected: it did not start within ${START_TIMEOUT_MS / 1000} s (${(lastError as Error)?.message ?? 'no answer'}); see ${daemonLogPath(home)}`,
  );
}

const SPAWN_LOCK_STALE_MS = START_TIMEOUT_MS;

/** Exclusive for a few seconds: the client that creates it spawns the daemon, the others wait. */
function takeSpawnLock(home: string): boolean {
  const path = join(home, 'daemon.spawn.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      closeSync(openSync(path, 'wx', 0o600));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return true;
      try {
        if (Date.now() - statSync(path).mtimeMs < SPAWN_LOCK_STALE_MS) return false;
      } catch {
        // Gone meanwhile: try again.
      }
      removeQuietly(path);
    }
  }
  return false;
}

/** What to do about a daemon that stopped at start: free some space when the disk is full, else read its log. */
function startFailureHint(home: string): string {
  try {
    const disk = statfsSync(home);
    if (disk.bavail === 0) return `the disk under ${home} is full; free some space and retry`;
  } catch {
    // No figures: the log then.
  }
  return `see ${daemonLogPath(home)}`;
}

function startDetached(home: string): ChildProcess {
  ensureHome();
  let log: number;
  try {
    log = openSync(daemonLogPath(home), 'a', 0o600);
  } catch (error) {
    // A read-only or full home: said in one line, before a daemon is spawned that could not run.
    throw new WorkbenchError(fsFault(error) ?? 'daemon_not_connected', `cannot start the daemon: cannot write ${daemonLogPath(home)}: ${fsReason(error)}`);
  }
  const child = spawn(process.execPath, [cliEntry(), 'daemon', 'run'], {
    detached: true,
    stdio: ['ignore', log, log],
    env: {...process.env, WORKBENCH_HOME: home},
    cwd: home,
  });
  child.unref();
  closeSync(log);
  return child;
}

export interface DaemonStatus {
  running: boolean;
  pid?: number;
  socket: string;
  home: string;
  startedAt?: number;
  processes?: number;
  /** Processes a crashed daemon left running. */
  survivors?: SurvivingProcess[];
  /** Why the daemon was not reached, when a socket is there but not trusted. */
  refused?: string;
}

export async function daemonStatus(): Promise<DaemonStatus> {
  const home = workbenchHome();
  const socket = daemonSocketPath(home);
  try {
    const client = await DaemonClient.connect(socket);
    try {
      const ping = await client.call('ping');
      // The daemon's, whatever the project: every project's processes.
      const processes = await client.call('proc.list', {all: true});
      return {running: true, pid: ping.pid, socket, home, startedAt: ping.startedAt, processes: processes.length, survivors: ping.survivors};
    } finally {
      client.close();
    }
  } catch (error) {
    if (error instanceof UntrustedSocketError) return {running: false, socket, home, refused: error.message};
    return {running: false, socket, home};
  }
}

/** Stops the daemon (and the processes it owns); waits until it is gone. */
export async function stopDaemon(): Promise<{wasRunning: boolean; pid?: number}> {
  const home = workbenchHome();
  let client: DaemonClient;
  try {
    client = await DaemonClient.connect(daemonSocketPath(home));
  } catch (error) {
    if (error instanceof UntrustedSocketError) throw error;
    if (!holderAlive(readPidFile(home))) {
      removeQuietly(daemonSocketPath(home));
      removeQuietly(daemonPidPath(home));
    }
    return {wasRunning: false};
  }
  const {pid} = await client.call('ping');
  const gone = client.closedPromise();
  await client.call('daemon.stop');
  await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  client.close();
  return {wasRunning: true, pid};
}
