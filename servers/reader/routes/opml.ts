import type {FastifyInstance} from 'fastify';
import type {ReaderService} from '../../../source/feeds/contracts.js';
import {errorResponses, noQuery} from '../schemas.js';

/** An OPML file of a few thousand subscriptions is well under this. */
export const OPML_BODY_LIMIT = 4 * 1024 * 1024;
const OPML_TYPES = ['text/xml', 'application/xml', 'text/x-opml', 'application/x-opml', 'application/opml+xml'];

const importAnswer = {
  type: 'object',
  required: ['added', 'skipped', 'failed'],
  properties: {
    added: {type: 'integer'},
    skipped: {type: 'integer'},
    failed: {type: 'array', items: {type: 'object', required: ['url', 'error'], properties: {url: {type: 'string'}, error: {type: 'string'}}}},
  },
} as const;

/** OPML import (POST, an XML body) and export (GET). */
export async function opmlRoutes(app: FastifyInstance, {service}: {service: ReaderService}): Promise<void> {
  // Scoped to this plugin: only /opml takes XML.
  app.addContentTypeParser(OPML_TYPES, {parseAs: 'string', bodyLimit: OPML_BODY_LIMIT}, (_request, body, done) => done(null, body));

  app.post<{Body: string}>(
    '/opml',
    {bodyLimit: OPML_BODY_LIMIT, schema: {querystring: noQuery, body: {type: 'string', minLength: 1}, response: {200: importAnswer, ...errorResponses}}},
    (request) => service.importOpml(request.body),
  );

  app.get('/opml', {schema: {querystring: noQuery, response: errorResponses}}, async (_request, reply) =>
    reply
      .type('text/x-opml; charset=utf-8')
      .header('content-disposition', 'attachment; filename="workbench-feeds.opml"')
      .send(await service.exportOpml()),
  );
}
