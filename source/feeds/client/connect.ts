import {WorkbenchError} from '../../core/errors.js';
import type {ReaderService} from '../contracts.js';
import {httpCall} from './http-call.js';
import {createHttpReader, readerBaseUrl} from './http-reader.js';
import {readServerState} from './server-state.js';

export {clearServerState, writeServerState} from './server-state.js';

export interface OpenReaderOptions {
  /** A reader server's URL; else WORKBENCH_READER_URL. */
  server?: string;
  /** A SQLite path or a postgres:// / mysql:// URL for the in-process reader. */
  db?: string;
}

// A local server answers health in a few ms; a stale reader.json must not slow every command.
const HEALTH_TIMEOUT_MS = 300;

/**
 * The reader every face uses: a named server, else the one `workbench serve reader` announced in
 * WORKBENCH_HOME/reader.json if it answers, else the service in this process on the local store.
 */
export async function openReader(options: OpenReaderOptions = {}): Promise<ReaderService> {
  const server = options.server ?? (options.db === undefined ? process.env.WORKBENCH_READER_URL || undefined : undefined);
  if (options.server !== undefined && options.db !== undefined) throw new WorkbenchError('invalid_argument', '--server and --db exclude each other: --db opens the store in this process');
  if (server !== undefined) return createHttpReader(server);
  if (options.db === undefined) {
    const running = await runningServer();
    if (running) return createHttpReader(running);
  }
  const {createReaderService} = await import('../service/index.js');
  return createReaderService({connection: options.db});
}

/** The URL from reader.json when its process lives and answers GET /api/v1/health in time. */
export async function runningServer(): Promise<string | undefined> {
  const state = readServerState();
  if (!state || !processAlive(state.pid)) return undefined;
  try {
    const base = readerBaseUrl(state.url);
    const answer = await httpCall(new URL(`${base}/api/v1/health`), {method: 'GET', headers: {accept: 'application/json'}, timeoutMs: HEALTH_TIMEOUT_MS});
    return answer.status === 200 ? base : undefined;
  } catch {
    return undefined;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive but someone else's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
