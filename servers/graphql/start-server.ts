import type {FastifyInstance} from 'fastify';
import {requireJwtSettings} from '../../source/gql/auth/index.js';
import {openChat} from '../../source/gql/chat/chat-service.js';
import {startServiceDispatcher} from '../../source/gql/events/events-service.js';
import {outboxMetrics} from '../../source/gql/events/outbox-metrics.js';
import {OutboxStore} from '../../source/gql/events/outbox-store.js';
import {servedGraphqlOf, type HttpHandlerOptions} from '../../source/gql/request/index.js';
import type {GqlService} from '../../source/gql/types.js';
import {join} from 'node:path';
import {workbenchHome} from '../../source/core/paths.js';
import {listenOver} from '../kit/index.js';
import {startQuicFront, type QuicFront} from '../kit/quic-front/index.js';
import {buildGraphqlApp} from './app.js';
import {builtPlaygroundAssets, type PlaygroundAssets} from './playground-assets.js';

export const DEFAULT_GRAPHQL_PORT = 7702;

/** An opened service; its document cache (openGqlService's has one) is the one requests prepare through. */
export type ServableService = GqlService;

export interface GraphqlServerOptions extends HttpHandlerOptions {
  /** The opened service (settings, model, schema, database); the server closes it when it closes. */
  service: ServableService;
  host?: string;
  /** Default 7702; 0: any free port. */
  port?: number;
  /** The request log; none: failures go to stderr. */
  logFile?: string;
  /** The address others reach this server at (accepted as Host and Origin); default the listening one. */
  publicUrl?: string;
  /** The playground's bundle; default the build's dist/playground. */
  playground?: PlaygroundAssets;
  /** Where start-up warnings go besides the log (default stderr). */
  warn?: (line: string) => void;
}

export interface GraphqlServer {
  url: string;
  /** With GqlService:Http3:Enabled and Caddy running: the same endpoint over HTTPS and HTTP/3, and its certificate's SPKI hash. */
  http3?: {url: string; spkiHash: string};
  app: FastifyInstance;
  service: ServableService;
  /** Stops the listener (requests in flight finish), then the service's database. */
  close(): Promise<void>;
}

/** Listens for GraphQL over the opened service — 127.0.0.1:7702 unless told otherwise. */
export async function startGraphqlServer(options: GraphqlServerOptions): Promise<GraphqlServer> {
  const {service} = options;
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? DEFAULT_GRAPHQL_PORT;
  const warn = options.warn ?? ((line: string) => process.stderr.write(`${line}\n`));
  // Token checks need both settings: a server with auth on and no authority refuses to start.
  if (!service.settings.disableAuth) requireJwtSettings(service.settings);
  const served = servedGraphqlOf(service);

  let front: QuicFront | undefined;
  const serving = await listenOver({
    name: 'GraphQL server',
    service,
    host,
    port,
    ownsService: false,
    build: () =>
      buildGraphqlApp({
        served,
        playground: options.playground ?? builtPlaygroundAssets(),
        logFile: options.logFile,
        // Requests through the QUIC front arrive with its Host and Origin (https://localhost:<port>).
        publicUrl: () => options.publicUrl ?? front?.url,
        http3Port: () => (front ? service.settings.http3.httpsPort : undefined),
        verify: options.verify,
        onInternalError: options.onInternalError,
        chat: openChat(service),
      }),
  });
  const app = serving.app;
  const server: GraphqlServer = serving;
  if (service.settings.http3.enabled) {
    front = await startQuicFront({
      upstreamUrl: serving.url,
      port: service.settings.http3.httpsPort,
      dir: join(workbenchHome(), 'graphql-h3'),
      warn: (line) => {
        warn(`warning: ${line}`);
        app.log.warn(line);
      },
    });
    if (front) {
      const started = front;
      server.http3 = {url: started.url, spkiHash: started.certificate.spkiHash};
      const close = serving.close.bind(serving);
      serving.close = async () => {
        await started.stop();
        await close();
      };
    }
  }
  if (service.model.events) outboxMetrics(app.metrics, new OutboxStore(service.db, service.settings.provider, service.model.events.outbox));
  // Change events: delivered to Cdc:WebhookUrl / Cdc:NatsUrl while the server runs, woken by its own commits.
  try {
    const dispatcher = await startServiceDispatcher(service, {log: (line) => app.log.warn(line)});
    if (dispatcher) {
      const close = serving.close.bind(serving);
      serving.close = async () => {
        await dispatcher.stop();
        await close();
      };
    }
  } catch (error) {
    await serving.close();
    throw error;
  }
  if (service.settings.disableAuth) {
    const line = `warning: GqlService:DisableAuth is true in ${service.settings.source}: no token is checked and every request is served as an anonymous user`;
    warn(line);
    app.log.warn(line);
  }
  return serving;
}
