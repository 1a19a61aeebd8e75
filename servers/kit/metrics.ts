import type {FastifyInstance} from 'fastify';
import {Registry} from 'prom-client';
import {exposition, httpMetrics, metricsEnabled, TEXT_FORMAT, type HttpMetrics} from '../../source/metrics/registry.js';
import type {Front} from './front.js';
import {CLIENT_CLOSED_REQUEST, onClientLeft} from './client-left.js';
import {noQuery} from './schemas.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The server's own metrics registry: domain code registers its figures here (source/metrics/README.md). */
    metrics: Registry;
  }
}

// Requests no route matched: one label value, never the raw URL (bounded cardinality).
const UNMATCHED = 'unmatched';

/**
 * Counts every answered request by route pattern (`/api/v1/feeds/:id`, never the URL) and serves
 * the server's registry and the process metrics on `GET /metrics` in the Prometheus text format, behind the kit's
 * Host/Origin guard like every other route. `WORKBENCH_METRICS=off` keeps `/metrics` but counts nothing.
 */
export function installMetrics(
  app: FastifyInstance,
  registry: Registry = new Registry(),
  counted: HttpMetrics | undefined = metricsEnabled() ? httpMetrics(registry) : undefined,
): void {
  app.decorate('metrics', registry);
  if (counted) {
    const http = counted;
    // A callback hook, not an async one: no promise made per request.
    app.addHook('onResponse', (request, reply, done) => {
      http.observe({route: request.routeOptions.url ?? UNMATCHED, method: request.method, status: reply.statusCode}, reply.elapsedTime / 1000);
      done();
    });
    onClientLeft(app, (request, ms) => http.observe({route: request.routeOptions.url ?? UNMATCHED, method: request.method, status: CLIENT_CLOSED_REQUEST}, ms / 1000));
  }
  app.get('/metrics', {schema: {querystring: noQuery}}, async (_request, reply) => {
    return reply.type(TEXT_FORMAT).send(await exposition(registry));
  });
}

/**
 * A front (front.ts) whose answers are counted like fastify's, under `route`: its time is the
 * answer's making (bytes at hand), the write being node's. Requests it passes on are fastify's to count.
 */
export function countedFront(front: Front, http: HttpMetrics, route: string): Front {
  return (request) => {
    const began = performance.now();
    const answer = front(request);
    if (answer !== undefined) http.observe({route, method: request.method, status: answer.status}, (performance.now() - began) / 1000);
    return answer;
  };
}
