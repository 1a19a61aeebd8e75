import type {FastifyInstance} from 'fastify';
import {errorResponses, noQuery} from '../../kit/index.js';

/** Under a prefix no GqlService:Path or Playground may take. */
export const WORKBENCH_PREFIX = '/_workbench';
export const HEALTH_PATH = `${WORKBENCH_PREFIX}/health`;

/** GET /_workbench/health: liveness (the service registry's health URL). */
export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get(HEALTH_PATH, {schema: {querystring: noQuery, response: {200: {type: 'object', required: ['ok'], properties: {ok: {type: 'boolean'}}}, ...errorResponses}}}, async () => ({
    ok: true,
  }));
}
