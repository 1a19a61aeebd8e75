import type {FastifyInstance} from 'fastify';
import {useServer as serveGraphqlWs} from 'graphql-ws/use/ws';
import {WebSocketServer} from 'ws';
import {graphqlWsOptions, type HttpHandlerOptions, type ServedGraphql, type WsExtra} from '../../../source/gql/request/index.js';
import {acceptWebSockets} from '../../kit/index.js';

export interface SubscriptionRouteOptions extends HttpHandlerOptions {
  served: ServedGraphql;
  publicUrl?: () => string | undefined;
}

/**
 * GraphQL over WebSocket (graphql-ws, subprotocol `graphql-transport-ws`) at GqlService:Path,
 * beside GraphQL over HTTP: subscriptions (`<t>Changed`), and queries and mutations for clients
 * that send everything over one socket. The upgrade passes the kit's Host/Origin guard first.
 */
export async function subscriptionRoutes(app: FastifyInstance, options: SubscriptionRouteOptions): Promise<void> {
  const server = new WebSocketServer({noServer: true, maxPayload: 1024 * 1024});
  const served = serveGraphqlWs<Record<string, unknown>, WsExtra>(graphqlWsOptions(options.served, options), server);
  acceptWebSockets(app, {path: options.served.settings.path, server, ...(options.publicUrl ? {publicUrl: options.publicUrl} : {})});
  app.addHook('onClose', async () => {
    await served.dispose();
  });
}
