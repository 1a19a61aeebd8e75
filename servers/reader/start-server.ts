import type {FastifyInstance} from 'fastify';
import {describeError} from '../../source/core/errors.js';
import {createReaderService, startIngestorPolling, startPolling, type LocalReaderService, type ReaderDeps, type ReaderServiceOptions} from '../../source/feeds/service/index.js';
import {listenOver} from '../kit/index.js';
import {buildReaderApp} from './app.js';
import {createGreader} from '../../source/feeds/greader/greader-service.js';
import {Registry} from 'prom-client';
import {countedFetchFeed} from '../../source/feeds/fetcher/fetch-metrics.js';
import {defaultReaderDeps} from '../../source/feeds/service/default-deps.js';

export interface ReaderServerOptions {
  host?: string;
  port?: number;
  /** A taken port gives way to the next free one above it. */
  nextFree?: boolean;
  /** SQLite path or postgres:// / mysql:// URL; default `<WORKBENCH_HOME>/reader.sqlite`. */
  db?: string;
  /** Poll feeds in the background (default true). */
  poll?: boolean;
  /** Pause between poll rounds (default the poller's 60 s). */
  pollIntervalMs?: number;
  /** The address others reach this server at (list RSS URLs, accepted Host); default the listening one. */
  publicUrl?: string;
  /** The request log; none: failures go to stderr. */
  logFile?: string;
  deps?: Partial<ReaderDeps>;
  /** The ingestors' model, key file and network stack (tests). */
  ingestors?: ReaderServiceOptions['ingestors'];
}

/**
 * A feed that fails is recorded on the feed (fetchStatus, lastError) for the faces to show, and
 * in the log when there is one. A poller that cannot list due feeds (the database is gone)
 * always says so, on stderr when there is no log.
 */
function pollError(app: FastifyInstance, logging: boolean, what: 'feed' | 'ingestor' = 'feed') {
  return (feedId: number | null, error: unknown) => {
    const line = feedId === null ? `poller: listing due ${what}s failed: ${describeError(error)}` : `poller: ${what} ${feedId}: ${describeError(error)}`;
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
  let ingestorPoller: ReturnType<typeof startPolling> | null = null;
  // Made before the app: the fetches are counted from the service's first one.
  const metrics = new Registry();
  const service = await createReaderService({
    connection: options.db,
    deps: {...options.deps, fetchFeed: countedFetchFeed(metrics, options.deps?.fetchFeed ?? defaultReaderDeps.fetchFeed)},
    ingestors: {...options.ingestors, onChange: () => void ingestorPoller?.runOnce()},
    baseUrl: () => options.publicUrl ?? url,
  });
  let poller: ReturnType<typeof startPolling> | null = null;
  const serving = await listenOver({
    name: 'reader',
    service,
    host,
    port,
    nextFree: options.nextFree,
    build: () =>
      buildReaderApp({
        service,
        logFile: options.logFile,
        publicUrl: () => options.publicUrl,
        greader: createGreader({store: service.store, reader: service, nowMs: () => Date.now()}),
        metrics,
      }),
    beforeClose: async () => {
      await Promise.all([poller?.stop(), ingestorPoller?.stop()]);
    },
  });
  url = serving.url;
  poller = options.poll === false ? null : startPolling(service, {intervalMs: options.pollIntervalMs, onError: pollError(serving.app, options.logFile !== undefined)});
  ingestorPoller =
    options.poll === false ? null : startIngestorPolling(service, {intervalMs: options.pollIntervalMs, onError: pollError(serving.app, options.logFile !== undefined, 'ingestor')});
  return serving;
}
