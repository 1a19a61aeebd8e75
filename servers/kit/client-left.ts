import type {FastifyInstance, FastifyRequest} from 'fastify';

/** nginx's status for a request whose client closed the connection before its answer (no response was sent). */
export const CLIENT_CLOSED_REQUEST = 499;

/**
 * Calls `left` for each request whose client closed the connection before its answer was written
 * (a query given up on): fastify calls no onResponse for it, and its onRequestAbort only fires
 * while the body is still coming. `ms`: from the request's arrival to the close.
 */
export function onClientLeft(app: FastifyInstance, left: (request: FastifyRequest, ms: number) => void): void {
  // A callback hook, not an async one: no promise made per request.
  app.addHook('onRequest', (request, reply, done) => {
    const arrived = performance.now();
    const response = reply.raw;
    response.once('close', () => {
      if (!response.writableFinished) left(request, performance.now() - arrived);
    });
    done();
  });
}
