import type {FastifyInstance} from 'fastify';
import {CHANNEL_ITEM_MAX_BYTES, type LocalGatewayService, type NewChannelItem} from '../../../source/gateway/index.js';
import {bearerToken} from '../bearer.js';
import {channelSummarySchema, createdChannelSchema, errorResponses, idParams, newChannelBody, newItemBody, noQuery, okSchema} from '../schemas.js';

interface IdParams {
  id: string;
}

/** Channels: created by anyone who reaches the API, written with their write token, served at `/<id>` (feeds.ts). */
export async function channelRoutes(app: FastifyInstance, {service}: {service: LocalGatewayService}): Promise<void> {
  app.get('/api/channels', {schema: {querystring: noQuery, response: {200: {type: 'array', items: channelSummarySchema}, ...errorResponses}}}, () => service.listChannels());

  app.post<{Body: {title: string; description?: string; ttl_hours?: number}}>(
    '/api/channels',
    {schema: {querystring: noQuery, body: newChannelBody, response: {201: createdChannelSchema, ...errorResponses}}},
    async (request, reply) => {
      const {title, description, ttl_hours: ttlHours} = request.body;
      return reply.status(201).send(await service.createChannel({title, description, ttlHours}));
    },
  );

  // The body limit is the item limit: 64 KB of JSON is taken, one byte more is 413 (spec).
  app.post<{Params: IdParams; Body: NewChannelItem}>(
    '/api/channels/:id/items',
    {bodyLimit: CHANNEL_ITEM_MAX_BYTES, schema: {querystring: noQuery, params: idParams, body: newItemBody, response: {201: okSchema, ...errorResponses}}},
    async (request, reply) => {
      await service.postItem(request.params.id, bearerToken(request.headers.authorization), request.body);
      return reply.status(201).send({ok: true});
    },
  );

  app.delete<{Params: IdParams}>(
    '/api/channels/:id',
    {schema: {querystring: noQuery, params: idParams, response: {204: {type: 'null'}, ...errorResponses}}},
    async (request, reply) => {
      await service.deleteChannel(request.params.id, bearerToken(request.headers.authorization));
      return reply.status(204).send();
    },
  );
}
