import type {FastifyInstance} from 'fastify';
import type {ReaderService} from '../../../source/feeds/contracts.js';
import type {Feed} from '../../../source/feeds/types.js';
import {errorResponses, feedChoicesSchema, feedSchema, idParams, noQuery, urlBody} from '../schemas.js';

interface IdParams {
  id: number;
}

const subscribeBody = {
  ...urlBody,
  properties: {...urlBody.properties, category: {type: ['string', 'null'], maxLength: 200}},
} as const;

/** Subscriptions: list, subscribe, discover, unsubscribe, refresh, mark all read. */
export async function feedRoutes(app: FastifyInstance, {service}: {service: ReaderService}): Promise<void> {
  // The service hands back the same array while the answer holds (feed-list-cache.ts); its JSON
  // (68 KB for 200 feeds) is then sent again rather than serialised again.
  const bodies = new WeakMap<Feed[], string>();
  app.get('/feeds', {schema: {querystring: noQuery, response: {200: {type: 'array', items: feedSchema}, ...errorResponses}}}, async (_request, reply) => {
    const feeds = await service.listFeeds();
    let body = bodies.get(feeds);
    if (body === undefined) bodies.set(feeds, (body = reply.serialize(feeds) as string));
    return reply.type('application/json; charset=utf-8').send(body);
  });

  // 201 with the feed; 200 with {feeds: [...]} when the URL is a page linking several feeds.
  app.post<{Body: {url: string; category?: string | null}}>(
    '/feeds',
    {schema: {querystring: noQuery, body: subscribeBody, response: {201: feedSchema, 200: feedChoicesSchema, ...errorResponses}}},
    async (request, reply) => {
      const answer = await service.subscribe(request.body.url, {category: request.body.category ?? null});
      if ('choices' in answer) return reply.status(200).send({feeds: answer.choices});
      return reply.status(201).send(answer.feed);
    },
  );

  /**
   * POST /feeds/discover — preview, subscribes to nothing.
   * Body `{url: string}` (http or https). Answers 200 `{feeds: [{url, title, format}]}`: the URL
   * itself when it is a feed, else the feeds its page links (`<link rel="alternate">`), else the
   * well-known paths that answer with a feed; `feeds: []` when there are none.
   */
  app.post<{Body: {url: string}}>('/feeds/discover', {schema: {querystring: noQuery, body: urlBody, response: {200: feedChoicesSchema, ...errorResponses}}}, async (request) => ({
    feeds: await service.discover(request.body.url),
  }));

  app.delete<{Params: IdParams}>('/feeds/:id', {schema: {querystring: noQuery, params: idParams, response: {204: {type: 'null'}, ...errorResponses}}}, async (request, reply) => {
    await service.unsubscribe(request.params.id);
    return reply.status(204).send();
  });

  app.post<{Params: IdParams}>(
    '/feeds/:id/refresh',
    {
      schema: {
        querystring: noQuery,
        params: idParams,
        response: {200: {type: 'object', required: ['newArticles'], properties: {newArticles: {type: 'integer'}}}, ...errorResponses},
      },
    },
    (request) => service.refresh(request.params.id),
  );

  app.post<{Params: IdParams}>(
    '/feeds/:id/mark-all-read',
    {schema: {querystring: noQuery, params: idParams, response: {200: {type: 'object', required: ['marked'], properties: {marked: {type: 'integer'}}}, ...errorResponses}}},
    (request) => service.markAllRead(request.params.id),
  );
}
