import {createHash} from 'node:crypto';
import type {FastifyInstance} from 'fastify';
import {WorkbenchError} from '../../../source/core/errors.js';
import type {ReaderService} from '../../../source/feeds/contracts.js';
import type {Visibility} from '../../../source/feeds/types.js';
import {notModified} from '../../kit/index.js';
import {errorResponses, idParams, listSchema, noQuery} from '../schemas.js';

interface IdParams {
  id: number;
}

const createBody = {
  type: 'object',
  required: ['title', 'visibility'],
  additionalProperties: false,
  properties: {title: {type: 'string', maxLength: 200}, visibility: {type: 'string', enum: ['public', 'private']}},
} as const;
const itemBody = {type: 'object', required: ['articleId'], additionalProperties: false, properties: {articleId: idParams.properties.id}} as const;
const itemParams = {
  type: 'object',
  required: ['id', 'articleId'],
  additionalProperties: false,
  properties: {id: idParams.properties.id, articleId: idParams.properties.id},
} as const;
const tokenParams = {type: 'object', required: ['token'], additionalProperties: false, properties: {token: {type: 'string', maxLength: 128}}} as const;

/** Saved lists, their items, and the RSS of public ones (the sharing URL). */
export async function listRoutes(app: FastifyInstance, {service}: {service: ReaderService}): Promise<void> {
  app.get('/lists', {schema: {querystring: noQuery, response: {200: {type: 'array', items: listSchema}, ...errorResponses}}}, () => service.listLists());

  app.post<{Body: {title: string; visibility: Visibility}}>(
    '/lists',
    {schema: {querystring: noQuery, body: createBody, response: {201: listSchema, ...errorResponses}}},
    async (request, reply) => {
      // Empty and whitespace-only titles alike are a bad body, not a bad argument.
      if (!request.body.title.trim()) throw new WorkbenchError('invalid_body', 'title must not be blank');
      return reply.status(201).send(await service.createList(request.body.title, request.body.visibility));
    },
  );

  app.delete<{Params: IdParams}>('/lists/:id', {schema: {querystring: noQuery, params: idParams, response: {204: {type: 'null'}, ...errorResponses}}}, async (request, reply) => {
    await service.deleteList(request.params.id);
    return reply.status(204).send();
  });

  app.post<{Params: IdParams; Body: {articleId: number}}>(
    '/lists/:id/items',
    {schema: {querystring: noQuery, params: idParams, body: itemBody, response: {200: listSchema, ...errorResponses}}},
    (request) => service.addToList(request.params.id, request.body.articleId),
  );

  app.delete<{Params: {id: number; articleId: number}}>(
    '/lists/:id/items/:articleId',
    {schema: {querystring: noQuery, params: itemParams, response: {200: listSchema, ...errorResponses}}},
    (request) => service.removeFromList(request.params.id, request.params.articleId),
  );

  // No credential: the token in the address is the capability; private lists have none. Public:
  // feed readers anywhere fetch it by whatever name reaches this server, so the Host check skips it.
  // Feed readers poll it: an ETag (the document's hash) and Last-Modified (when the list last
  // changed, the RSS's lastBuildDate) let them ask conditionally and get 304 with no body.
  app.get<{Params: {token: string}}>(
    '/lists/:token.xml',
    {config: {public: true}, schema: {querystring: noQuery, params: tokenParams, response: errorResponses}},
    async (request, reply) => {
      const xml = await service.listRss(request.params.token);
      const etag = `"${createHash('sha256').update(xml).digest('base64url').slice(0, 27)}"`;
      const modified = lastBuildDate(xml);
      reply.header('etag', etag).header('cache-control', 'no-cache');
      if (modified) reply.header('last-modified', modified.toUTCString());
      if (notModified(request.headers, etag, modified?.getTime() ?? null)) return reply.status(304).send();
      return reply.type('application/rss+xml; charset=utf-8').send(xml);
    },
  );
}

/** The channel's lastBuildDate, which the service sets to when the list last changed. */
function lastBuildDate(xml: string): Date | null {
  const channel = xml.slice(0, Math.max(0, xml.indexOf('<item>')) || xml.length);
  const text = /<lastBuildDate>([^<]{1,64})<\/lastBuildDate>/.exec(channel)?.[1];
  const date = text ? new Date(text) : null;
  return date && Number.isFinite(date.getTime()) ? date : null;
}
