import {chmodSync, lstatSync, mkdirSync, type Stats} from 'node:fs';
import {dirname} from 'node:path';
import {WorkbenchError} from '../core/errors.js';

/**
 * A socket someone else planted would receive the user's commands (and could answer them). So a
 * client talks only to a socket that this user owns, in a directory this user owns and nobody
 * else may write to; the daemon makes both so.
 */
export class UntrustedSocketError extends WorkbenchError {
  constructor(message: string) {
    super('daemon_not_connected', message);
  }
}

const uid = () => process.getuid?.();

function describeOwner(what: string, path: string, stat: Stats): string | undefined {
  const me = uid();
  if (me === undefined) return undefined;
  if (stat.uid !== me) return `${what} ${path} belongs to uid ${stat.uid}, not to you (uid ${me})`;
  if ((stat.mode & 0o022) !== 0) return `${what} ${path} is writable by others (mode ${(stat.mode & 0o777).toString(8)})`;
  return undefined;
}

function dirProblem(dir: string): string | undefined {
  let stat: Stats;
  try {
    stat = lstatSync(dir);
  } catch {
    return undefined;
  }
  return stat.isDirectory() ? describeOwner('directory', dir, stat) : `${dir} is not a directory`;
}

function isPlainFile(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}

function refuse(problem: string): never {
  throw new UntrustedSocketError(`daemon not connected: refusing the daemon socket: ${problem}; someone else may be listening there — remove it if you do not know why`);
}

/** Throws UntrustedSocketError unless the socket and its directory are this user's alone. A missing socket passes (connect reports it). */
export function verifySocket(socketPath: string): void {
  const dir = dirname(socketPath);
  // A home that is a plain file is the user's slip, not a planted socket: said as such.
  if (isPlainFile(dir)) throw new WorkbenchError('invalid_argument', `${dir} is a file, not a folder`);
  const problem = dirProblem(dir);
  if (problem) refuse(problem);
  let socket: Stats;
  try {
    socket = lstatSync(socketPath);
  } catch {
    return;
  }
  if (!socket.isSocket()) refuse(`${socketPath} is not a socket`);
  const owner = describeOwner('socket', socketPath, socket);
  if (owner) refuse(owner);
}

/** The daemon's side: the socket's directory exists, is ours and 0700 (tightened when it is ours and wider). */
export function prepareSocketDir(socketPath: string): void {
  const dir = dirname(socketPath);
  mkdirSync(dir, {recursive: true, mode: 0o700});
  const stat = lstatSync(dir);
  if (stat.isDirectory() && stat.uid === uid() && (stat.mode & 0o077) !== 0) chmodSync(dir, 0o700);
  const problem = dirProblem(dir);
  if (problem) refuse(problem);
}
