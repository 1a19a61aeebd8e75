import type {FastifyInstance} from 'fastify';
import {isWorkbenchError, WorkbenchError} from '../../../source/core/errors.js';
import type {LocalGatewayService} from '../../../source/gateway/index.js';
import {bearerToken, sameSecret} from '../bearer.js';
import {errorResponses, feedStatusSchema, nameParams, noQuery, refreshResultSchema} from '../schemas.js';

export interface FeedApiOptions {
  service: LocalGatewayService;
  /** REFRESH_TOKEN; none: the refresh webhook answers 404 (spec). */
  refreshToken?: string;
}

/** The proxied feeds: their status (never contacting an origin) and the refresh webhook. */
export async function feedApiRoutes(app: FastifyInstance, {service, refreshToken}: FeedApiOptions): Promise<void> {
  app.get('/api/feeds', {schema: {querystring: noQuery, response: {200: {type: 'array', items: feedStatusSchema}, ...errorResponses}}}, () => service.listFeeds());

  app.get<{Params: {name: string}}>(
    '/api/feeds/:name/status',
    {schema: {querystring: noQuery, params: nameParams, response: {200: feedStatusSchema, ...errorResponses}}},
    (request) => service.feedStatus(request.params.name),
  );

  // Statuses as the spec lists them: 404 without a configured secret, 401 without a token, 403
  // with a wrong one — checked before the name, so no caller learns which feeds exist — then
  // 404 for an unknown feed and 502 when the origin fails.
  app.post<{Params: {name: string}}>(
    '/api/feeds/:name/refresh',
    {schema: {querystring: noQuery, params: nameParams, response: {200: refreshResultSchema, ...errorResponses}}},
    async (request) => {
      if (!refreshToken) throw new WorkbenchError('not_found', 'the refresh webhook is off: the gateway was started without REFRESH_TOKEN');
      const token = bearerToken(request.headers.authorization);
      if (token === undefined) throw new WorkbenchError('unauthorized', 'send Authorization: Bearer <REFRESH_TOKEN>');
      if (!sameSecret(token, refreshToken)) throw new WorkbenchError('forbidden', 'the bearer token is not the REFRESH_TOKEN');
      try {
        return await service.refresh(request.params.name);
      } catch (error) {
        // An origin that answers something unusable failed as much as one that is down (spec: 502).
        if (isWorkbenchError(error) && (error.code === 'not_a_feed' || error.code === 'payload_too_large')) throw new WorkbenchError('feed_unreachable', error.message);
        throw error;
      }
    },
  );
}
