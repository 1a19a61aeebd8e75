import type {FastifyInstance} from 'fastify';
import {WorkbenchError} from '../../source/core/errors.js';
import type {Chat} from '../../source/gql/chat/chat-service.js';
import type {HttpHandlerOptions, ServedGraphql} from '../../source/gql/request/index.js';
import {createServer} from '../kit/index.js';
import {advertiseHttp3} from '../kit/quic-front/index.js';
import type {PlaygroundAssets} from './playground-assets.js';
import {chatRoutes} from './routes/chat.js';
import {feedRoutes} from './routes/feeds.js';
import {fileRoutes} from './routes/files.js';
import {graphqlRoutes} from './routes/graphql.js';
import {healthRoutes, WORKBENCH_PREFIX} from './routes/health.js';
import {playgroundRoutes} from './routes/playground.js';
import {subscriptionRoutes} from './routes/subscriptions.js';

export interface GraphqlAppOptions extends HttpHandlerOptions {
  served: ServedGraphql;
  /** The playground's bundle; undefined: its page says to build it. */
  playground: PlaygroundAssets | undefined;
  /** The request log; none: failures go to stderr. */
  logFile?: string;
  /** Largest body accepted (default the kit's 1 MB). */
  bodyLimit?: number;
  /** The address others reach this server at, if not the listening one (accepted as Host and Origin). */
  publicUrl?: () => string | undefined;
  /** The HTTP/3 port once the QUIC front runs: every answer then carries Alt-Svc. */
  http3Port?: () => number | undefined;
  /** The model's chat (a chat schema in the metadata): served at <GqlService:Path>/chat. */
  chat?: Chat;
}

/**
 * GraphQL over the database (spec 3) on the server kit: graphql-http at GqlService:Path, GraphiQL at
 * GqlService:Playground with its assets from this server, graphql-ws (subscriptions) on upgrades at
 * GqlService:Path, health under /_workbench. The kit's
 * Host/Origin guard applies to all of it: a page of another site can neither POST a mutation nor GET a
 * query here (an `<img src>` would run it); only the feed surface is readable from any site.
 */
export function buildGraphqlApp(options: GraphqlAppOptions): FastifyInstance {
  const {path, playground} = options.served.settings;
  checkPaths(path, playground);
  const app = createServer({
    name: 'graphql',
    logFile: options.logFile,
    bodyLimit: options.bodyLimit,
    publicUrl: options.publicUrl,
    accepts: 'application/json',
    refuseCrossSiteReads: true,
  });
  const onInternalError = options.onInternalError ?? ((error: unknown) => app.log.error({err: error}, 'authentication failed'));
  if (options.http3Port) advertiseHttp3(app, options.http3Port);
  app.register(healthRoutes);
  app.register(graphqlRoutes, {served: options.served, verify: options.verify, onInternalError});
  app.register(fileRoutes, {served: options.served, verify: options.verify, onInternalError});
  app.register(subscriptionRoutes, {served: options.served, verify: options.verify, onInternalError, publicUrl: options.publicUrl});
  if (options.chat) app.register(chatRoutes, {served: options.served, chat: options.chat, verify: options.verify, onInternalError});
  app.register(playgroundRoutes, {path: playground, endpoint: path, assets: options.playground});
  app.register(feedRoutes, {served: options.served, verify: options.verify, publicUrl: options.publicUrl});
  return app;
}

/** GqlService:Path and Playground: absolute paths, not each other, not the server's own prefix. */
function checkPaths(path: string, playground: string): void {
  for (const [name, value] of [
    ['GqlService:Path', path],
    ['GqlService:Playground', playground],
  ] as const) {
    if (!/^\/[A-Za-z0-9._~\-/]*$/.test(value))
      throw new WorkbenchError('config_invalid', `${name} ${JSON.stringify(value)} must be a path starting with / (letters, digits, . _ ~ - /)`);
    if (value === WORKBENCH_PREFIX || value.startsWith(`${WORKBENCH_PREFIX}/`))
      throw new WorkbenchError('config_invalid', `${name} ${value} is under ${WORKBENCH_PREFIX}, which the server keeps for itself`);
  }
  if (path === playground) throw new WorkbenchError('config_invalid', `GqlService:Path and GqlService:Playground are both ${path}; give the playground another path`);
}
