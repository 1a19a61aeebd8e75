import type {Registry} from 'prom-client';
import type {FastifyInstance} from 'fastify';
import type {LocalGatewayService} from '../../source/gateway/index.js';
import {createServer} from '../kit/index.js';
import {feedFront} from './front.js';
import {channelRoutes} from './routes/channels.js';
import {feedApiRoutes} from './routes/feed-api.js';
import {feedRoutes} from './routes/feeds.js';
import {healthRoutes} from './routes/health.js';
import {websubRoutes} from './routes/websub.js';

export interface GatewayAppOptions {
  service: LocalGatewayService;
  /** The refresh webhook's shared secret (REFRESH_TOKEN); none: the webhook answers 404. */
  refreshToken?: string;
  /** The request log (`serve` gives `<home>/logs/gateway.log`); none: failures go to stderr. */
  logFile?: string;
  /** The address others reach this server at, if not the listening one (accepted as Host and Origin). */
  publicUrl?: () => string | undefined;
  /** Answer cached feeds before fastify routes them (default true; the benchmark turns it off to compare). */
  front?: boolean;
  /** How long a request head may take before it is answered 408 (the kit's; default node's 60 s). */
  headersTimeoutMs?: number;
  /** The metrics registry the service's figures are on (start-server.ts: its origin fetches); default a new one. */
  metrics?: Registry;
}

/**
 * The feed gateway (spec 2, part B) on the server kit: `/<name>` for proxied feeds and channels
 * (public), and under /api the feeds' status and refresh webhook, channels, and the WebSub hub
 * (whose writes keep the kit's Host/Origin guard).
 */
export function buildGatewayApp(options: GatewayAppOptions): FastifyInstance {
  const {service} = options;
  const front = options.front === false ? undefined : feedFront(service);
  const app = createServer({
    name: 'gateway',
    logFile: options.logFile,
    publicUrl: options.publicUrl,
    front,
    frontRoute: '/:name',
    metrics: options.metrics,
    headersTimeoutMs: options.headersTimeoutMs,
  });
  app.register(healthRoutes);
  app.register(feedRoutes, {service});
  app.register(feedApiRoutes, {service, refreshToken: options.refreshToken});
  app.register(channelRoutes, {service});
  app.register(websubRoutes, {hub: service.hub});
  return app;
}
