import type {FastifyInstance} from 'fastify';
import {errorResponses} from '../schemas.js';

/** GET /health: liveness. */
export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get('/health', {schema: {response: {200: {type: 'object', required: ['ok'], properties: {ok: {type: 'boolean'}}}, ...errorResponses}}}, async () => ({ok: true}));
}
