import {WorkbenchError} from '../../source/core/errors.js';
import {serverLogPath} from '../../source/core/paths.js';
import {parseInteger} from '../../source/core/parse-number.js';
import {serve} from '../kit/index.js';
import {startReaderServer} from './start-server.js';

export interface ReaderFlags {
  host: string;
  port: string;
  db?: string;
  publicUrl?: string;
}

/**
 * `workbench serve reader`: the reader in the foreground, announced in
 * `WORKBENCH_HOME/services/reader.json`, logging to `WORKBENCH_HOME/logs/reader.log`, until
 * SIGINT/SIGTERM (in-flight polls finish their transaction).
 */
export async function runReaderServer(flags: ReaderFlags): Promise<{stderr: string}> {
  const port = parseInteger(flags.port, '--port')!;
  if (port < 0 || port > 65535) throw new WorkbenchError('invalid_argument', `--port must be 0-65535, got ${port}`);
  const host = flags.host.trim();
  if (!host || /[\s/]/.test(host)) throw new WorkbenchError('invalid_argument', `--host: "${flags.host}" is not an address`);
  if (flags.db !== undefined && !flags.db.trim()) throw new WorkbenchError('invalid_argument', '--db is empty');
  const publicUrl = flags.publicUrl === undefined ? undefined : parsePublicUrl(flags.publicUrl);

  const logFile = serverLogPath('reader');
  const reason = await serve({
    name: 'reader',
    host,
    healthPath: '/api/v1/health',
    logFile,
    details: {db: flags.db ?? null, ...(publicUrl ? {publicUrl} : {})},
    start: () => startReaderServer({host, port, db: flags.db, publicUrl, logFile}),
  });
  return {stderr: `reader stopped (${reason})\n`};
}

function parsePublicUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WorkbenchError('invalid_argument', `--public-url: "${text}" is not a URL (e.g. https://reader.example.org)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WorkbenchError('invalid_argument', `--public-url: "${text}" is not an http(s) URL`);
  return url.href.replace(/\/+$/, '');
}
