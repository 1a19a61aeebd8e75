import type {FastifyInstance} from 'fastify';
import type {ReaderService} from '../../../source/feeds/contracts.js';
import {categoryCountsSchema, errorResponses} from '../schemas.js';

const query = {type: 'object', additionalProperties: false, properties: {feed_id: {type: 'integer', minimum: 1, maximum: 2_147_483_647}}} as const;

/** GET /categories: article subjects with counts, optionally of one feed. */
export async function categoryRoutes(app: FastifyInstance, {service}: {service: ReaderService}): Promise<void> {
  app.get<{Querystring: {feed_id?: number}}>('/categories', {schema: {querystring: query, response: {200: categoryCountsSchema, ...errorResponses}}}, (request) =>
    service.categories(request.query.feed_id),
  );
}
