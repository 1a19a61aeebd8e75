import type {FastifyInstance} from 'fastify';
import type {ReaderService} from '../../../source/feeds/contracts.js';
import type {ArticleQuery} from '../../../source/feeds/types.js';
import {articlePageSchema, articleQuerySchema, errorResponses, fullArticleSchema, idParams, noQuery} from '../schemas.js';

interface IdParams {
  id: number;
}

const readBody = {type: 'object', required: ['read'], additionalProperties: false, properties: {read: {type: 'boolean'}}} as const;
const snoozeBody = {
  type: 'object',
  required: ['until'],
  additionalProperties: false,
  properties: {until: {type: ['string', 'null'], maxLength: 64, description: 'ISO 8601 with a zone, in the future; null unsnoozes'}},
} as const;

/** Articles: cursor-paginated list, the full record, read state, snooze. */
export async function articleRoutes(app: FastifyInstance, {service}: {service: ReaderService}): Promise<void> {
  app.get<{Querystring: ArticleQuery}>('/articles', {schema: {querystring: articleQuerySchema, response: {200: articlePageSchema, ...errorResponses}}}, (request) =>
    service.listArticles(request.query),
  );

  app.get<{Params: IdParams}>('/articles/:id', {schema: {querystring: noQuery, params: idParams, response: {200: fullArticleSchema, ...errorResponses}}}, (request) =>
    service.getArticle(request.params.id),
  );

  app.post<{Params: IdParams; Body: {read: boolean}}>(
    '/articles/:id/read',
    {schema: {querystring: noQuery, params: idParams, body: readBody, response: {200: fullArticleSchema, ...errorResponses}}},
    (request) => service.setRead(request.params.id, request.body.read),
  );

  app.post<{Params: IdParams; Body: {until: string | null}}>(
    '/articles/:id/snooze',
    {schema: {querystring: noQuery, params: idParams, body: snoozeBody, response: {200: fullArticleSchema, ...errorResponses}}},
    (request) => service.snooze(request.params.id, request.body.until),
  );
}
