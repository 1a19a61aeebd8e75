import type {FastifyInstance} from 'fastify';
import type {Registry} from 'prom-client';
import type {ReaderService} from '../../source/feeds/contracts.js';
import {MAX_PAGE_SIZE} from '../../source/feeds/service/index.js';
import {createServer, DEFAULT_BODY_LIMIT} from '../kit/index.js';
import {articleRoutes} from './routes/articles.js';
import {categoryRoutes} from './routes/categories.js';
import {feedRoutes} from './routes/feeds.js';
import {healthRoutes} from './routes/health.js';
import type {Greader} from '../../source/feeds/greader/greader-service.js';
import {greaderRoutes} from './greader/routes.js';
import {ingestorRoutes} from './routes/ingestors.js';
import {listRoutes} from './routes/lists.js';
import {opmlRoutes} from './routes/opml.js';

export {DEFAULT_BODY_LIMIT};

export interface ReaderAppOptions {
  service: ReaderService;
  /** The request log (`serve` gives `<home>/logs/reader.log`); none: failures go to stderr. */
  logFile?: string;
  /** Largest JSON body accepted (default 1 MB); bigger answers 413 payload_too_large. */
  bodyLimit?: number;
  /** The address others reach this server at, if not the listening one (accepted as Host and Origin). */
  publicUrl?: () => string | undefined;
  /** The Google Reader API over the same store (servers/reader/greader); absent: not served. */
  greader?: Greader;
  /** The metrics registry the service's figures are on (start-server.ts); default a new one. */
  metrics?: Registry;
}

/** The reader API (spec 2, part A) under /api/v1: one plugin per area over a ReaderService, on the server kit. */
export function buildReaderApp(options: ReaderAppOptions): FastifyInstance {
  const app = createServer({
    name: 'reader',
    bodyLimit: options.bodyLimit,
    logFile: options.logFile,
    accepts: 'application/json (XML to /opml)',
    validationMessage: queryMessage,
    publicUrl: options.publicUrl,
    ignoreDuplicateSlashes: true,
    metrics: options.metrics,
  });
  const {service} = options;
  app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(feedRoutes, {service});
      await api.register(articleRoutes, {service});
      await api.register(categoryRoutes, {service});
      await api.register(listRoutes, {service});
      await api.register(opmlRoutes, {service});
      await api.register(ingestorRoutes, {service});
    },
    {prefix: '/api/v1'},
  );
  const {greader} = options;
  if (greader) {
    // FeedHQ's paths (newsboat's `urls-source "feedhq"`) and FreshRSS's prefix (most other clients).
    app.register(greaderRoutes, {greader});
    app.register(greaderRoutes, {greader, prefix: '/api/greader.php'});
  }
  return app;
}

// ajv's "must be >= 1" says nothing useful of `limit=%20` (a blank reads as 0); one sentence fits every bad limit.
function queryMessage(validation: {instancePath?: string}[]): string | undefined {
  return validation[0]?.instancePath === '/limit' ? `limit must be a whole number 1–${MAX_PAGE_SIZE}` : undefined;
}
