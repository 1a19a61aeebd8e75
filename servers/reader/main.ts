import {WorkbenchError} from '../../source/core/errors.js';
import {serverLogPath} from '../../source/core/paths.js';
import {parseHost, parsePort, parsePublicUrl, serve} from '../kit/index.js';
import {startReaderServer} from './start-server.js';

export interface ReaderFlags {
  host: string;
  port: string;
  nextFree?: boolean;
  db?: string;
  publicUrl?: string;
}

/**
 * `workbench serve reader`: the reader in the foreground, announced in
 * `WORKBENCH_HOME/services/reader.json`, logging to `WORKBENCH_HOME/logs/reader.log`, until
 * SIGINT/SIGTERM (in-flight polls finish their transaction).
 */
export async function runReaderServer(flags: ReaderFlags): Promise<{stderr: string}> {
  const port = parsePort(flags.port);
  const host = parseHost(flags.host);
  if (flags.db !== undefined && !flags.db.trim()) throw new WorkbenchError('invalid_argument', '--db is empty');
  const publicUrl = flags.publicUrl === undefined ? undefined : parsePublicUrl(flags.publicUrl, 'https://reader.example.org');

  const logFile = serverLogPath('reader');
  const reason = await serve({
    name: 'reader',
    host,
    healthPath: '/api/v1/health',
    logFile,
    details: {db: flags.db ?? null, ...(publicUrl ? {publicUrl} : {})},
    start: () => startReaderServer({host, port, nextFree: flags.nextFree, db: flags.db, publicUrl, logFile}),
  });
  return {stderr: `reader stopped (${reason})\n`};
}
