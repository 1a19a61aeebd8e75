/**
 * The daemon's own side of its lifecycle: the home's lock, the socket, the supervisor and the
 * proxies. Apart from lifecycle.ts (the clients' side) so that a command that only talks to the
 * daemon does not load the supervisor, the dev proxy and the metrics endpoint.
 */
import {chmodSync, closeSync, openSync, watch, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {environmentFault, WorkbenchError} from '../core/errors.js';
import {daemonPidPath, daemonSocketPath, ensureHome} from '../core/paths.js';
import {createProxyManager} from '../devproxy/create-manager.js';
import {Supervisor} from '../processes/supervisor.js';
import {describeSurvivors, holderAlive, readPid, readPidFile, removeQuietly} from './lifecycle.js';
import {processStartTime} from './liveness.js';
import {daemonRegistry, startMetricsEndpoint, type MetricsEndpoint} from './metrics-endpoint.js';
import {sinkFileOutput} from './log-output.js';
import {Inbox} from './inbox.js';
import {createDaemonServer} from './server.js';
import {prepareSocketDir} from './socket-guard.js';
import {ProcessRecord} from './survivors.js';

const LOCK_CHECK_MS = 5_000;

/**
 * Takes the home's daemon lock: the pid file is created exclusively, so two daemons never run
 * for one home. A lock left by a dead daemon (SIGKILL) is taken over.
 */
function acquireLock(home: string): boolean {
  const pidPath = daemonPidPath(home);
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number | undefined;
    try {
      fd = openSync(pidPath, 'wx', 0o600);
      writeFileSync(fd, `${process.pid}\n${processStartTime(process.pid) ?? ''}\n`);
      closeSync(fd);
      return true;
    } catch (error) {
      if (fd !== undefined) {
        // Created but not written (a full disk): an empty lock would hold no one's pid.
        closeSync(fd);
        removeQuietly(pidPath);
      }
      if (environmentFault(error) === 'disk_full') throw new WorkbenchError('disk_full', `cannot start the daemon: the disk under ${home} is full; free some space and retry`);
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readPidFile(home);
      if (holderAlive(holder) && holder.pid !== process.pid) return false;
      removeQuietly(pidPath);
    }
  }
  return false;
}

/**
 * Calls `check` as soon as the pid file changes or goes, so a removed home ends the daemon at once
 * rather than at the next poll. The poll stays: a file system without change events (or with its
 * watch limit reached) still gets the check, only later.
 */
function watchLock(pidPath: string, check: () => void): void {
  try {
    const watcher = watch(pidPath, {persistent: false}, check);
    watcher.on('error', () => watcher.close());
  } catch {
    // No watch here: the poll alone.
  }
}

/** Runs the daemon in this process until `daemon stop`, SIGTERM or SIGINT. */
export async function runDaemon(): Promise<void> {
  // Before anything is written: a full disk under daemon.log must not end the daemon.
  const logs = sinkFileOutput();
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
  const inbox = new Inbox(supervisor, proxies);
  const record = new ProcessRecord(home);
  const survivors = record.list();
  if (survivors.length) process.stderr.write(`workbench daemon: still running from a daemon that died: ${describeSurvivors(survivors)}\n`);
  record.save([]);
  let stopping = false;
  // A daemon on its way out writes the record once, at the end, and only into a home still its own:
  // a home being deleted gets no file back (`rm -r` of it found the folder refilled and failed).
  supervisor.on('change', () => {
    if (!stopping) record.save(supervisor.list());
  });
  let metrics: MetricsEndpoint | undefined;
  const shutdown = async (why: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`workbench daemon: pid ${process.pid} stopping (${why})\n`);
    server.close();
    await Promise.all([supervisor.stopAll(), proxies.stopAll(), metrics?.close()]);
    // Another daemon that took over the lock listens on the same path: leave its files alone.
    if (readPid(home) === process.pid) {
      record.save(supervisor.list());
      removeQuietly(socketPath);
      removeQuietly(daemonPidPath(home));
    }
    process.exit(0);
  };
  const server = createDaemonServer(supervisor, {proxies, inbox, startedAt: Date.now(), survivors: () => record.list(), shutdown: () => void shutdown('daemon stop')});
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
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGHUP', () => undefined);
  // A daemon whose home was deleted, or whose lock another daemon took over, serves no one: it goes.
  const checkLock = () => {
    if (readPid(home) !== process.pid) void shutdown('its lock is gone or another daemon’s');
  };
  setInterval(checkLock, LOCK_CHECK_MS).unref();
  watchLock(daemonPidPath(home), checkLock);
  removeQuietly(join(home, 'daemon.spawn.lock'));
  process.stderr.write(`workbench daemon: pid ${process.pid} listening on ${socketPath}\n`);
  // Metrics are for operators: a daemon whose endpoint cannot start still serves its clients.
  try {
    metrics = await startMetricsEndpoint(daemonRegistry(supervisor, proxies, logs));
    process.stderr.write(`workbench daemon: metrics on ${metrics.url}/metrics\n`);
  } catch (error) {
    process.stderr.write(`workbench daemon: no metrics endpoint: ${(error as Error)?.message ?? error}\n`);
  }
}
