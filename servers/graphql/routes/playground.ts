import {createHash} from 'node:crypto';
import type {FastifyInstance, FastifyReply, FastifyRequest} from 'fastify';
import {WorkbenchError} from '../../../source/core/errors.js';
import {noQuery, notModified} from '../../kit/index.js';
import type {PlaygroundAssets} from '../playground-assets.js';
import {WORKBENCH_PREFIX} from './health.js';

export const PLAYGROUND_ASSETS = `${WORKBENCH_PREFIX}/playground`;

export interface PlaygroundRouteOptions {
  /** GqlService:Playground: where the page is. */
  path: string;
  /** GqlService:Path: where the page sends queries. */
  endpoint: string;
  /** Undefined when the build has not made them: the page says how to. */
  assets: PlaygroundAssets | undefined;
}

// Everything from this server: the bundle, its stylesheet (fonts inlined as data:), the endpoint.
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The GraphiQL page at GqlService:Playground and its two assets, served by this server (no CDN is reached). */
export async function playgroundRoutes(app: FastifyInstance, options: PlaygroundRouteOptions): Promise<void> {
  const page = playgroundPage(options.endpoint);
  // A link on another site may open the playground (a static page; its own requests are same-origin).
  app.get(options.path, {config: {crossSiteReads: true}, schema: {querystring: noQuery}}, async (_request, reply) => {
    if (options.assets === undefined) {
      throw new WorkbenchError('not_found', 'the playground is not built: run `node scripts/build.mjs` (it bundles GraphiQL into dist/playground)');
    }
    return reply.header('content-type', 'text/html; charset=utf-8').header('content-security-policy', CSP).header('cache-control', 'no-cache').send(page);
  });
  for (const [name, type] of [
    ['graphiql.js', 'text/javascript; charset=utf-8'],
    ['graphiql.css', 'text/css; charset=utf-8'],
  ] as const) {
    const body = options.assets?.[name === 'graphiql.js' ? 'js' : 'css'];
    const etag = body === undefined ? '' : `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    app.get(`${PLAYGROUND_ASSETS}/${name}`, {config: {crossSiteReads: true}, schema: {querystring: noQuery}}, async (request: FastifyRequest, reply: FastifyReply) => {
      if (body === undefined) throw new WorkbenchError('not_found', `the playground is not built: run \`node scripts/build.mjs\``);
      reply.header('content-type', type).header('etag', etag).header('cache-control', 'no-cache').header('x-content-type-options', 'nosniff');
      if (notModified(request.headers, etag, null)) return reply.status(304).send();
      return reply.send(body);
    });
  }
}

function playgroundPage(endpoint: string): string {
  const attribute = endpoint.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>GraphQL playground · workbench</title>
<link rel="stylesheet" href="${PLAYGROUND_ASSETS}/graphiql.css">
<style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head>
<body>
<div id="graphiql" data-endpoint="${attribute}">Loading the GraphQL playground…</div>
<script type="module" src="${PLAYGROUND_ASSETS}/graphiql.js"></script>
</body>
</html>
`;
}
