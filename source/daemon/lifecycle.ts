import {spawn} from 'node:child_process';
import {chmodSync, closeSync, existsSync, openSync, readFileSync, statSync, unlinkSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {cliEntry} from '../core/entry.js';
import {WorkbenchError} from '../core/errors.js';
import {daemonLogPath, daemonPidPath, daemonSocketPath, ensureHome, workbenchHome} from '../core/paths.js';
import {createProxyManager} from '../devproxy/create-manager.js';
import {Supervisor} from '../processes/supervisor.js';
import {DaemonClient} from './client.js';
import {isAlive, processStartTime} from './liveness.js';
import type {SurvivingProcess} from './protocol/daemon.js';
import {createDaemonServer} from './server.js';
import {daemonRegistry, startMetricsEndpoint, type MetricsEndpoint} from './metrics-endpoint.js';
import {prepareSocketDir, UntrustedSocketError} from './socket-guard.js';
import {ProcessRecord} from './survivors.js';

const START_TIMEOUT_MS = 10_000;
const LOCK_CHECK_MS = 5_000;

interface PidFile {
  pid: number;
  /** The holder's start time (Linux), so a reused pid is not taken for the daemon. */
  startTime?: string;
}

/** `<pid>\n<start time>\n`; the first line alone is enough for scripts. */
function readPidFile(home: string): PidFile | undefined {
  try {
    const [first, second] = readFileSync(daemonPidPath(home), 'utf8').split('\n');
    const pid = Number.parseInt(first ?? '', 10);
    return Number.isFinite(pid) && pid > 0 ? {pid, startTime: second?.trim() || undefined} : undefined;
  } catch {
    return undefined;
  }
}

function readPid(home: string): number | undefined {
  return readPidFile(home)?.pid;
}

/** The lock holder runs (a zombie or a stranger with a reused pid does not count). */
function holderAlive(holder: PidFile | undefined): holder is PidFile {
  return holder !== undefined && isAlive(holder.pid, holder.startTime);
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Not there.
  }
}

/**
 * Takes the home's daemon lock: the pid file is created exclusively, so two daemons never run
 * for one home. A lock left by a dead daemon (SIGKILL) is taken over.
 */
function acquireLock(home: string): boolean {
  const pidPath = daemonPidPath(home);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(pidPath, 'wx', 0o600);
      writeFileSync(fd, `${process.pid}\n${processStartTime(process.pid) ?? ''}\n`);
      closeSync(fd);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readPidFile(home);
      if (holderAlive(holder) && holder.pid !== process.pid) return false;
      removeQuietly(pidPath);
    }
  }
  return false;
}

/** Runs the daemon in this process until `daemon stop`, SIGTERM or SIGINT. */
export async function runDaemon(): Promise<void> {
  const home = ensureHome();
  if (!acquireLock(home)) {
    process.stderr.write(`workbench daemon: already running for ${home} (pid ${readPid(home)})\n`);
    return;
  }
  const socketPath = daemonSocketPath(home);
  prepareSocketDir(socketPath);
  // The lock is ours, so any socket file left is a dead daemon's.
  removeQuietly(socketPath);
  const supervisor = new Supervisor();
  const proxies = createProxyManager();
  const record = new ProcessRecord(home);
  const survivors = record.list();
  if (survivors.length) process.stderr.write(`workbench daemon: still running from a daemon that died: ${describeSurvivors(survivors)}\n`);
  record.save([]);
  supervisor.on('change', () => record.save(supervisor.list()));
  let stopping = false;
  let metrics: MetricsEndpoint | undefined;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    server.close();
    await Promise.all([supervisor.stopAll(), proxies.stopAll(), metrics?.close()]);
    // Another daemon that took over the lock listens on the same path: leave its files alone.
    if (readPid(home) === process.pid) {
      removeQuietly(socketPath);
      removeQuietly(daemonPidPath(home));
    }
    process.exit(0);
  };
  const server = createDaemonServer(supervisor, {proxies, startedAt: Date.now(), survivors: () => record.list(), shutdown: () => void shutdown()});
  // The socket is born 0600 (umask) and made so again (chmod), so no other user can connect.
  const umask = process.umask(0o077);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
  } finally {
    process.umask(umask);
  }
  chmodSync(socketPath, 0o600);
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
  process.on('SIGHUP', () => undefined);
  // A daemon whose home was deleted, or whose lock another daemon took over, serves no one: it goes.
  setInterval(() => {
    if (readPid(home) !== process.pid) void shutdown();
  }, LOCK_CHECK_MS).unref();
  removeQuietly(join(home, 'daemon.spawn.lock'));
  process.stderr.write(`workbench daemon: pid ${process.pid} listening on ${socketPath}\n`);
  // Metrics are for operators: a daemon whose endpoint cannot start still serves its clients.
  try {
    metrics = await startMetricsEndpoint(daemonRegistry(supervisor, proxies));
    process.stderr.write(`workbench daemon: metrics on ${metrics.url}/metrics\n`);
  } catch (error) {
    process.stderr.write(`workbench daemon: no metrics endpoint: ${(error as Error)?.message ?? error}\n`);
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
  if (!alive && takeSpawnLock(home)) startDetached(home);
  const deadline = Date.now() + START_TIMEOUT_MS;
  let lastError: unknown;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    let client: DaemonClient;
    try {
      client = await DaemonClient.connect(socketPath);
    } catch (error) {
      if (error instanceof UntrustedSocketError) throw error;
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

function startDetached(home: string): void {
  ensureHome();
  const log = openSync(daemonLogPath(home), 'a', 0o600);
  const child = spawn(process.execPath, [cliEntry(), 'daemon', 'run'], {
    detached: true,
    stdio: ['ignore', log, log],
    env: {...process.env, WORKBENCH_HOME: home},
    cwd: home,
  });
  child.unref();
  closeSync(log);
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
      const processes = await client.call('proc.list');
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
