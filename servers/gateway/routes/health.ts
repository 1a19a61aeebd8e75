import type {FastifyInstance} from 'fastify';
import {errorResponses, noQuery} from '../schemas.js';

/** GET /health: liveness (the service registry's health URL). */
export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get('/health', {schema: {querystring: noQuery, response: {200: {type: 'object', required: ['ok'], properties: {ok: {type: 'boolean'}}}, ...errorResponses}}}, async () => ({
    ok: true,
  }));
}
