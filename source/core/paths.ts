import {createHash} from 'node:crypto';
import {accessSync, constants, mkdirSync, statSync} from 'node:fs';
import {homedir, tmpdir} from 'node:os';
import {isAbsolute, join} from 'node:path';

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

/**
 * The daemon's socket, in a directory only this user may enter: `$XDG_RUNTIME_DIR/workbench-<hash
 * of home>/` when the runtime directory is usable, else the home itself. Unix socket paths are
 * limited to ~107 bytes, so a home too long for one uses a per-user directory in tmpdir
 * (`workbench-<uid>/`, 0700, like tmux's). The daemon creates the directory; clients check its owner.
 */
export function daemonSocketPath(home = workbenchHome()): string {
  const digest = createHash('sha256').update(home).digest('hex').slice(0, 16);
  const runtime = process.env.XDG_RUNTIME_DIR;
  if (runtime && usableRuntimeDir(runtime)) {
    const inRuntime = join(runtime, `workbench-${digest}`, 'daemon.sock');
    if (Buffer.byteLength(inRuntime) < 100) return inRuntime;
  }
  const direct = join(home, 'daemon.sock');
  if (Buffer.byteLength(direct) < 100) return direct;
  return join(tmpdir(), `workbench-${process.getuid?.() ?? 'user'}`, `${digest}.sock`);
}

/** XDG base directory spec: the runtime directory is the user's own, 0700. */
function usableRuntimeDir(dir: string): boolean {
  try {
    const stat = statSync(dir);
    accessSync(dir, constants.W_OK | constants.X_OK);
    return isAbsolute(dir) && stat.isDirectory() && stat.uid === process.getuid?.() && (stat.mode & 0o077) === 0;
  } catch {
    return false;
  }
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
