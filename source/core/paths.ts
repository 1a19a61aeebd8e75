import {createHash} from 'node:crypto';
import {accessSync, chmodSync, constants, mkdirSync, statSync} from 'node:fs';
import {homedir, tmpdir} from 'node:os';
import {dirname, isAbsolute, join, resolve} from 'node:path';
import {WorkbenchError} from './errors.js';
import {fsFault, fsReason} from './fs-reason.js';

/** Where workbench keeps its state: WORKBENCH_HOME, else ~/.local/share/workbench (XDG_DATA_HOME honoured). */
export function workbenchHome(): string {
  const explicit = process.env.WORKBENCH_HOME;
  if (explicit) return explicit;
  const dataHome = process.env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(dataHome, 'workbench');
}

/** The home, created 0700, or tightened to 0700 when it exists with a looser mode. */
export function ensureHome(): string {
  return ensureDirectory(workbenchHome());
}

/**
 * Creates a folder and its missing parents with `mode` (0700: the user's alone), and tightens the
 * folder itself to `mode` when it is ours and looser. Node's own `mkdir -p` loops forever under
 * /proc (`/proc/nope/x`), so the parents are made one by one from the deepest one that exists.
 */
export function ensureDirectory(path: string, mode = 0o700): string {
  const target = resolve(path);
  const missing: string[] = [];
  for (let current = target; ; current = dirname(current)) {
    const stats = statOrUndefined(current);
    if (stats?.isDirectory()) break;
    if (stats) throw new WorkbenchError('invalid_argument', `${current} is a file, not a folder`);
    missing.unshift(current);
    if (dirname(current) === current) break;
  }
  for (const folder of missing) {
    try {
      mkdirSync(folder, {mode});
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      throw new WorkbenchError(fsFault(error) ?? 'invalid_argument', `cannot create the folder ${folder}: ${fsReason(error)}`);
    }
  }
  const stats = statSync(target);
  if ((stats.mode & 0o777 & ~mode) !== 0 && stats.uid === process.getuid?.()) {
    try {
      chmodSync(target, mode);
    } catch (error) {
      // A folder on a read-only file system cannot be tightened, nor written to: said now, in one line.
      throw new WorkbenchError('invalid_argument', `cannot use the folder ${target}: ${fsReason(error)}`);
    }
  }
  return target;
}

function statOrUndefined(path: string) {
  try {
    return statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new WorkbenchError('invalid_argument', `cannot use ${path}: ${fsReason(error)}`);
  }
}

/** Where a server writes its request log: `<home>/logs/<name>.log`. */
export function serverLogPath(name: string, home = workbenchHome()): string {
  return join(home, 'logs', `${name}.log`);
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
