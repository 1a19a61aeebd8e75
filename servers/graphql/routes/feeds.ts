import {createHash} from 'node:crypto';
import type {FastifyInstance} from 'fastify';
import {verifyBearer} from '../../../source/gql/auth/index.js';
import {FEEDS_PATH, feedTable, feedUrl, FeedVersionTimes, publishTableFeed} from '../../../source/gql/feed-surface/index.js';
import type {HttpHandlerOptions, ServedGraphql} from '../../../source/gql/request/index.js';
import {chooseRepresentation} from '../../../source/syndication/index.js';
import {errorResponses, notModified} from '../../kit/index.js';

export interface FeedRouteOptions extends HttpHandlerOptions {
  served: ServedGraphql;
  /** The address others reach this server at; default the request's own (its Host was checked by the kit). */
  publicUrl?: () => string | undefined;
}

const tableParams = {type: 'object', required: ['table'], additionalProperties: false, properties: {table: {type: 'string', minLength: 1, maxLength: 200}}} as const;
/** `?format=rss|atom|html` and nothing else, as the feed gateway takes it; a wrong value answers 400 from the negotiation. */
const formatQuery = {type: 'object', additionalProperties: false, properties: {format: {type: 'string', maxLength: 32}}} as const;

/**
 * `GET /feeds/<table>` (and HEAD): a table with `feed-timestamp` as RSS 2.0, Atom 1.0 or the landing
 * page, negotiated as the feed gateway negotiates (`?format=` beats Accept; a browser asking
 * text/html gets the page; RSS 2.0 otherwise). The rows are those the request's user may read
 * (its bearer token, or anonymous with DisableAuth). The ETag hashes the items shown, so an
 * unchanged table answers 304 to If-None-Match; Last-Modified is when that version was first
 * served (version-times.ts: an edit or a delete changes a feed without a newer item date), so
 * If-Modified-Since answers 304 too. Answers vary by Accept and by Authorization (another user
 * may see other rows).
 */
export async function feedRoutes(app: FastifyInstance, options: FeedRouteOptions): Promise<void> {
  const verify = options.verify ?? verifyBearer;
  const {served} = options;
  const versions = new FeedVersionTimes();
  app.get<{Params: {table: string}; Querystring: {format?: string}}>(
    `${FEEDS_PATH}/:table`,
    // The feed surface is meant to be read from anywhere (a feed reader's page); who sees which rows is the token's.
    {config: {crossSiteReads: true}, schema: {params: tableParams, querystring: formatQuery, response: errorResponses}},
    async (request, reply) => {
      const representation = chooseRepresentation({format: request.query.format}, {accept: request.headers.accept, userAgent: request.headers['user-agent']});
      const user = await verify(request.headers.authorization, served.settings);
      const table = feedTable(served.model, request.params.table);
      const context = served.context ? served.context(user) : {model: served.model, db: served.db, user};
      const baseUrl = (options.publicUrl?.() ?? `${request.protocol}://${request.headers.host ?? '127.0.0.1'}`).replace(/\/+$/, '');
      const rendered = await publishTableFeed(context, table, representation, feedUrl(baseUrl, table));
      // The reader's view: one table in one representation, its token (hashed, never kept) seeing its own rows.
      const view = `${table.name}\n${rendered.contentType}\n${createHash('sha256')
        .update(request.headers.authorization ?? '')
        .digest('base64url')}`;
      const changedAt = versions.since(view, rendered.etag, Date.now());
      const headers = {
        'cache-control': served.settings.disableAuth ? 'public, no-cache' : 'private, no-cache',
        etag: rendered.etag,
        ...(changedAt === undefined ? {} : {'last-modified': new Date(changedAt).toUTCString()}),
        vary: 'Accept, Authorization',
      };
      if (notModified(request.headers, rendered.etag, changedAt ?? null)) return reply.status(304).headers(headers).send();
      return reply.headers({...headers, 'content-type': rendered.contentType}).send(rendered.body);
    },
  );
}
