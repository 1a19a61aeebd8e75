import {createHash} from 'node:crypto';
import {mkdirSync} from 'node:fs';
import {homedir, tmpdir} from 'node:os';
import {join} from 'node:path';

/** Where workbench keeps its state: WORKBENCH_HOME, else ~/.local/share/workbench (XDG_DATA_HOME honoured). */
export function workbenchHome(): string {
  const explicit = process.env.WORKBENCH_HOME;
  if (explicit) return explicit;
  const dataHome = process.env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(dataHome, 'workbench');
}

export function ensureHome(): string {
  const home = workbenchHome();
  mkdirSync(home, {recursive: true, mode: 0o700});
  return home;
}

/** The daemon's socket. Unix socket paths are limited to ~107 bytes, so long homes hash into tmpdir. */
export function daemonSocketPath(home = workbenchHome()): string {
  const direct = join(home, 'daemon.sock');
  if (Buffer.byteLength(direct) < 100) return direct;
  const digest = createHash('sha256').update(home).digest('hex').slice(0, 16);
  return join(tmpdir(), `workbench-${digest}.sock`);
}

export function daemonPidPath(home = workbenchHome()): string {
  return join(home, 'daemon.pid');
}

export function daemonLogPath(home = workbenchHome()): string {
  return join(home, 'daemon.log');
}

/** ~/.config/workbench, honouring XDG_CONFIG_HOME (agent module profiles live here). */
export function configHome(): string {
  const base = process.env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'workbench');
}
