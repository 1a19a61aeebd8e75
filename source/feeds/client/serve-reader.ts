import {WorkbenchError} from '../../core/errors.js';
import {parseInteger} from '../../cli/parse-number.js';
import type {CommandResult} from '../../cli/command-output.js';
import {clearServerState, writeServerState} from './server-state.js';

/**
 * `workbench serve reader`: starts the server, announces it in WORKBENCH_HOME/reader.json for the
 * other faces, and on SIGINT/SIGTERM closes it (in-flight polls finish their transaction) and
 * takes the announcement back.
 */
export async function runReaderServer(flags: {host: string; port: string; db?: string}): Promise<CommandResult> {
  const port = parseInteger(flags.port, '--port')!;
  if (port < 0 || port > 65535) throw new WorkbenchError('invalid_argument', `--port must be 0-65535, got ${port}`);
  const host = flags.host.trim();
  if (!host || /[\s/]/.test(host)) throw new WorkbenchError('invalid_argument', `--host: "${flags.host}" is not an address`);
  if (flags.db !== undefined && !flags.db.trim()) throw new WorkbenchError('invalid_argument', '--db is empty');

  const {startReaderServer} = await import('../../../servers/reader/index.js');
  let server: {url: string; close(): Promise<void>};
  try {
    server = await startReaderServer({host, port, db: flags.db});
  } catch (error) {
    throw listenError(error, host, port);
  }
  writeServerState({url: server.url, db: flags.db ?? null});
  process.stdout.write(`reader listening on ${server.url}\n`);

  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  // A second Ctrl-C while closing means "now".
  process.once('SIGINT', () => process.exit(130));
  try {
    await server.close();
  } finally {
    clearServerState();
  }
  return {stderr: `reader stopped (${signal})\n`};
}

function listenError(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'EADDRINUSE') return new WorkbenchError('conflict', `${host}:${port} is in use (another reader?); choose another --port`);
  if (code === 'EACCES') return new WorkbenchError('invalid_argument', `not allowed to listen on ${host}:${port}; choose a port above 1023`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new WorkbenchError('invalid_argument', `--host: ${host} is no address of this machine`);
  return error;
}
