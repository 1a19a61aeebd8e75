import type {FastifyInstance} from 'fastify';
import {WorkbenchError} from '../../../source/core/errors.js';
import {chooseRepresentation, RESERVED_NAMES, type LocalGatewayService} from '../../../source/gateway/index.js';
import {feedHeaders, isCurrent} from '../feed-headers.js';
import {errorResponses, formatQuery, nameParams} from '../schemas.js';

/**
 * `GET /<name>` (and HEAD): a proxied feed or a channel, negotiated (`?format=` beats Accept; a
 * browser asking text/html gets the landing page; RSS 2.0 otherwise), with cache headers and
 * 304s. Public: feed readers anywhere fetch it by whatever name reaches this server. A cached
 * feed is answered by the server's front (front.ts) before it gets here; this route reads it
 * from the store first.
 */
export async function feedRoutes(app: FastifyInstance, {service}: {service: LocalGatewayService}): Promise<void> {
  app.get<{Params: {name: string}; Querystring: {format?: string}}>(
    '/:name',
    {config: {public: true}, schema: {querystring: formatQuery, params: nameParams, response: errorResponses}},
    async (request, reply) => {
      const {name} = request.params;
      const representation = chooseRepresentation({format: request.query.format}, {accept: request.headers.accept, userAgent: request.headers['user-agent']});
      const served = RESERVED_NAMES.has(name.toLowerCase()) ? null : await service.render(name, representation);
      if (!served) {
        const proxied = service.config.feeds.some((feed) => feed.name === name);
        throw new WorkbenchError(
          'not_found',
          proxied ? `"${name}" has no good copy of its origin yet (GET /api/feeds/${name}/status says why)` : `no feed or channel "${name}" here (a channel that expired is gone)`,
        );
      }
      const headers = feedHeaders(name, served, representation, service.baseUrl());
      if (isCurrent(served, request.headers)) return reply.status(304).headers(headers.notModified).send();
      return reply.headers(headers.ok).send(served.rendered.body);
    },
  );
}
