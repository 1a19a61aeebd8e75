import type {FastifyInstance} from 'fastify';
import {describeError} from '../../source/core/errors.js';
import {fetchFeed} from '../../source/feeds/fetcher/index.js';
import {countedFetchFeed} from '../../source/feeds/fetcher/fetch-metrics.js';
import {Registry} from 'prom-client';
import {createGatewayService, DEFAULT_GATEWAY_PORT, loadGatewayConfig, type GatewayConfig, type LocalGatewayService} from '../../source/gateway/index.js';
import type {Network} from '../../source/net/index.js';
import {isLoopback, listenOver} from '../kit/index.js';
import {buildGatewayApp} from './app.js';

export interface GatewayServerOptions {
  host?: string;
  /** Default 7701; 0: any free port. */
  port?: number;
  /** SQLite path or postgres:// / mysql:// URL; default `<WORKBENCH_HOME>/gateway.sqlite`. */
  db?: string;
  /** A KDL file with the `gateway { feed … }` block, instead of the project's `.workbench.kdl`. */
  configFile?: string;
  /** The project whose `.workbench.kdl` declares the feeds (default the working directory). */
  root?: string;
  /** The feeds, given directly (tests, the benchmark): no config file is read. */
  config?: GatewayConfig;
  /** The address others reach this gateway at (feed, self and hub URLs; accepted Host); default the listening one. */
  publicUrl?: string;
  /** The request log; none: failures go to stderr. */
  logFile?: string;
  /** The refresh webhook's secret; default REFRESH_TOKEN from the environment, read now. */
  refreshToken?: string;
  /** Poll origins and purge expired channels in the background (default true). */
  background?: boolean;
  /** Answer cached feeds before fastify routes them (default true). */
  front?: boolean;
  now?: () => number;
  fetch?: typeof fetchFeed;
  /** Let WebSub callbacks be private or loopback addresses; default privateCallbacksAllowed(). */
  allowPrivateCallbacks?: boolean;
  /** How the hub resolves and dials subscribers (default the system's; tests inject names). */
  network?: Network;
  /** How long a request head may take before it is answered 408 (default node's 60 s; tests shorten it). */
  headersTimeoutMs?: number;
}

export interface GatewayServer {
  url: string;
  app: FastifyInstance;
  service: LocalGatewayService;
  /** Stops polling (polls in flight finish), the listener, the hub's deliveries, then the store. */
  close(): Promise<void>;
}

/**
 * Whether WebSub callbacks may be loopback or private addresses: only for a gateway that serves
 * this machine alone — listening on loopback with no --public-url. A public URL means others
 * reach it (through a proxy on this host, whose loopback is then the subscriber's door into the
 * machine), and an address off loopback means other machines reach it.
 */
export function privateCallbacksAllowed(host: string, publicUrl: string | undefined): boolean {
  return isLoopback(host) && publicUrl === undefined;
}

/** Reads the feeds' config, opens the store (migrating it), listens — 127.0.0.1:7701 unless told otherwise — then polls. */
export async function startGatewayServer(options: GatewayServerOptions = {}): Promise<GatewayServer> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? DEFAULT_GATEWAY_PORT;
  const config = options.config ?? (await loadGatewayConfig({root: options.root ?? process.cwd(), configFile: options.configFile}));
  // An empty REFRESH_TOKEN is no secret: the webhook stays off.
  const refreshToken = (options.refreshToken ?? process.env.REFRESH_TOKEN) || undefined;
  let url = '';
  let app: FastifyInstance | undefined;
  const logged = options.logFile !== undefined;
  // Made before the app: the origin polls are counted from the first one (workbench_feed_fetches_total).
  const metrics = new Registry();
  const service = await createGatewayService({
    connection: options.db,
    config,
    baseUrl: () => options.publicUrl ?? url,
    now: options.now,
    fetch: countedFetchFeed(metrics, options.fetch ?? fetchFeed),
    allowPrivateCallbacks: options.allowPrivateCallbacks ?? privateCallbacksAllowed(host, options.publicUrl),
    ownUrls: () => [options.publicUrl, url].filter((known): known is string => Boolean(known)),
    network: options.network,
    // A failed poll is on the feed's status for the faces; the log has it too when there is one.
    onError: (what, error) => {
      if (logged) app?.log.warn(`${what}: ${describeError(error)}`);
    },
  });
  const serving = await listenOver({
    name: 'gateway',
    service,
    host,
    port,
    build: () =>
      (app = buildGatewayApp({
        service,
        refreshToken,
        logFile: options.logFile,
        publicUrl: () => options.publicUrl,
        front: options.front,
        metrics,
        headersTimeoutMs: options.headersTimeoutMs,
      })),
  });
  url = serving.url;
  if (options.background !== false) service.start();
  return serving;
}
