import {WorkbenchError} from '../../core/errors.js';
import type {ReaderService} from '../contracts.js';
import {findService} from '../../services/registry.js';
import {createHttpReader} from './http-reader.js';

export interface OpenReaderOptions {
  /** A reader server's URL; else WORKBENCH_READER_URL. */
  server?: string;
  /** A SQLite path or a postgres:// / mysql:// URL for the in-process reader. */
  db?: string;
}

/**
 * The reader every face uses: a named server, else the one `workbench serve reader` announced in
 * the service registry (WORKBENCH_HOME/services/reader.json) if it answers, else the service in
 * this process on the local store.
 */
export async function openReader(options: OpenReaderOptions = {}): Promise<ReaderService> {
  const server = options.server ?? (options.db === undefined ? process.env.WORKBENCH_READER_URL || undefined : undefined);
  if (options.server !== undefined && options.db !== undefined)
    throw new WorkbenchError('invalid_argument', '--server and --db exclude each other: --db opens the store in this process');
  if (server !== undefined) return createHttpReader(server);
  if (options.db === undefined) {
    const running = await runningServer();
    if (running) return createHttpReader(running);
  }
  const {createReaderService} = await import('../service/index.js');
  return createReaderService({connection: options.db});
}

/** The URL of the reader `workbench serve reader` announced, when its process lives and answers its health check in time. */
export async function runningServer(): Promise<string | undefined> {
  return (await findService('reader'))?.url;
}
