import type {FastifyInstance} from 'fastify';
import {describeError} from '../../source/core/errors.js';
import {createReaderService, startPolling, type LocalReaderService, type ReaderDeps} from '../../source/feeds/service/index.js';
import {buildReaderApp} from './app.js';

export interface ReaderServerOptions {
  host?: string;
  port?: number;
  /** SQLite path or postgres:// / mysql:// URL; default `<WORKBENCH_HOME>/reader.sqlite`. */
  db?: string;
  /** Poll feeds in the background (default true). */
  poll?: boolean;
  /** Pause between poll rounds (default the poller's 60 s). */
  pollIntervalMs?: number;
  /** The address others reach this server at (list RSS URLs); default the listening one. */
  publicUrl?: string;
  logger?: boolean;
  deps?: Partial<ReaderDeps>;
}

/**
 * A feed that fails is recorded on the feed (fetchStatus, lastError) for the faces to show; the
 * log gets it only when logging is on. A poller that cannot list due feeds (the database is
 * gone) always says so on stderr.
 */
function pollError(app: FastifyInstance, logging: boolean) {
  return (feedId: number | null, error: unknown) => {
    const line = feedId === null ? `poller: listing due feeds failed: ${describeError(error)}` : `poller: feed ${feedId}: ${describeError(error)}`;
    if (logging) app.log.warn(line);
    else if (feedId === null) process.stderr.write(`${line}\n`);
  };
}

export interface ReaderServer {
  url: string;
  app: FastifyInstance;
  service: LocalReaderService;
  /** Stops polling (the polls in flight commit or roll back whole), the listener, then the store. */
  close(): Promise<void>;
}

/** Opens the store (migrating it), starts the poller and listens — 127.0.0.1:7700 unless told otherwise. */
export async function startReaderServer(options: ReaderServerOptions = {}): Promise<ReaderServer> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 7700;
  let url = '';
  const service = await createReaderService({connection: options.db, deps: options.deps, baseUrl: () => options.publicUrl ?? url});
  const app = buildReaderApp({service, logger: options.logger});
  try {
    await app.listen({host, port});
  } catch (error) {
    await app.close().catch(() => {});
    await service.close();
    throw error;
  }
  const address = app.server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  url = `http://${host.includes(':') ? `[${host}]` : host}:${boundPort}`;
  const poller = options.poll === false ? null : startPolling(service, {intervalMs: options.pollIntervalMs, onError: pollError(app, options.logger ?? false)});
  let closing: Promise<void> | undefined;
  return {
    url,
    app,
    service,
    close() {
      closing ??= (async () => {
        await poller?.stop();
        await app.close();
        await service.close();
      })().catch((error) => {
        throw new Error(`closing the reader failed: ${describeError(error)}`);
      });
      return closing;
    },
  };
}
