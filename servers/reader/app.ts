import Fastify, {type FastifyInstance} from 'fastify';
import type {ReaderService} from '../../source/feeds/contracts.js';
import {installErrorHandling} from './error-handler.js';
import {articleRoutes} from './routes/articles.js';
import {categoryRoutes} from './routes/categories.js';
import {feedRoutes} from './routes/feeds.js';
import {healthRoutes} from './routes/health.js';
import {listRoutes} from './routes/lists.js';
import {opmlRoutes} from './routes/opml.js';
import {installJsonBodyParser} from './json-body-parser.js';
import {installRouteRules} from './route-rules.js';
import {validatorCompiler} from './validator-compilers.js';

export interface ReaderAppOptions {
  service: ReaderService;
  logger?: boolean;
  /** Largest JSON body accepted (default 1 MB); bigger answers 413 payload_too_large. */
  bodyLimit?: number;
}

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** The reader API (spec 2, part A) under /api/v1: one plugin per area over a ReaderService. */
export function buildReaderApp(options: ReaderAppOptions): FastifyInstance {
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const app = Fastify({logger: options.logger ?? false, bodyLimit});
  app.setValidatorCompiler(validatorCompiler);
  installErrorHandling(app, bodyLimit);
  installRouteRules(app);
  // fastify reads text/plain by default; this API takes JSON (and XML at /opml) only, so other types are 415.
  app.removeContentTypeParser('text/plain');

  installJsonBodyParser(app);
  const {service} = options;
  app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(feedRoutes, {service});
      await api.register(articleRoutes, {service});
      await api.register(categoryRoutes, {service});
      await api.register(listRoutes, {service});
      await api.register(opmlRoutes, {service});
    },
    {prefix: '/api/v1'},
  );
  return app;
}
