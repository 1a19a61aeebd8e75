import {createServer as createHttpServer, type IncomingMessage, type ServerResponse} from 'node:http';
import Fastify, {LogController, type FastifyInstance, type FastifyServerFactory} from 'fastify';
import {clientErrorHandler, frameworkErrors, installErrorHandling, type ErrorWording} from './error-handler.js';
import {installJsonBodyParser} from './json-body-parser.js';
import {installLocalGuard} from './local-guard.js';
import {Registry} from 'prom-client';
import {httpMetrics, metricsEnabled} from '../../source/metrics/registry.js';
import {countDroppedLogLines} from '../../source/metrics/log-drops.js';
import {countedFront, installMetrics} from './metrics.js';
import {answerFromFront, installRawFront, type Front} from './front.js';
import {countedRequestLog, installRequestLog, openLogFile, type RequestLine} from './request-log.js';
import {installRouteRules} from './route-rules.js';
import {validatorCompiler} from './validator-compilers.js';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export interface ServerOptions {
  /** The server's name: `reader` logs to `<home>/logs/reader.log` when `serve` runs it. */
  name: string;
  /** Largest body accepted (default 1 MB); bigger answers 413 payload_too_large. */
  bodyLimit?: number;
  /** Where requests and failures are logged (a full disk drops lines, counted on /metrics); none: failures go to stderr. */
  logFile?: string;
  /** What a refused content type should have been (default `application/json`). */
  accepts?: string;
  validationMessage?: ErrorWording['validationMessage'];
  /** The address others reach the server at, if not the listening one (Host and Origin checks accept it). */
  publicUrl?: () => string | undefined;
  /** Other sites' pages may not even read (local-guard.ts): a GET there does work a page should not start. */
  refuseCrossSiteReads?: boolean;
  /**
   * Answers a GET or HEAD before fastify routes it, when the answer is at hand (front.ts);
   * otherwise fastify does. It gets none of the app's hooks, so it keeps the app's rules itself
   * (the gateway's cached public feeds). Its requests are in the request log too, counted
   * (request-log.ts).
   */
  front?: Front;
  /** The route pattern the front's answers are counted under (the fastify route that answers the same requests); default `(front)`. */
  frontRoute?: string;
  /** `//a//b` routes as `/a/b` (clients that join a base URL ending in `/` with a path starting with one: newsboat). */
  ignoreDuplicateSlashes?: boolean;
  /**
   * How long a request's head may take to arrive before it is answered 408 (default node's 60 s),
   * on connections node:http reads and on those the front holds alike; tests shorten it.
   */
  headersTimeoutMs?: number;
  /** The server's metrics registry, when its service registers figures before the app exists (metrics.ts); default a new one. */
  metrics?: Registry;
}

/**
 * A fastify app with what every workbench server keeps: JSON bodies (and no text/plain), ajv
 * without coercion for bodies, route rules checked at registration, the Host/Origin guard, a
 * request log, metrics on `GET /metrics` (metrics.ts), and one error body `{error: {code, message}}` for every failure — routing
 * refusals and malformed HTTP included. Routes are the server's to add.
 */
export function createServer(options: ServerOptions): FastifyInstance {
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const wording: ErrorWording = {bodyLimit, accepts: options.accepts, logFile: options.logFile, validationMessage: options.validationMessage};
  const log = options.logFile === undefined ? undefined : openLogFile(options.logFile);
  const frontLog = log && options.front ? countedRequestLog(log) : undefined;
  const registry = options.metrics ?? new Registry();
  if (log) countDroppedLogLines(registry, options.name, [log]);
  const http = metricsEnabled() ? httpMetrics(registry) : undefined;
  // The front answers before fastify's hooks: it counts its own answers, under the route they stand for.
  const front = options.front && http ? countedFront(options.front, http, options.frontRoute ?? '(front)') : options.front;
  const app = Fastify({
    bodyLimit,
    logger: log ? {level: 'info', stream: log} : {level: 'error', stream: process.stderr},
    // One line per request from installRequestLog instead of fastify's two.
    logController: new LogController({disableRequestLogging: true}),
    // Node answers an HTTP/1.1 request without Host with a bare 400; the Host check answers it in JSON instead.
    http: {requireHostHeader: false, ...headersTimeout(options.headersTimeoutMs)},
    frameworkErrors: frameworkErrors(wording),
    clientErrorHandler,
    routerOptions: {ignoreDuplicateSlashes: options.ignoreDuplicateSlashes ?? false},
    ...(front ? {serverFactory: frontedServer(front, frontLog?.line)} : {}),
  });
  app.setValidatorCompiler(validatorCompiler);
  installErrorHandling(app, wording);
  installRouteRules(app);
  installLocalGuard(app, {publicUrl: options.publicUrl, refuseCrossSiteReads: options.refuseCrossSiteReads});
  if (log) installRequestLog(app, log, frontLog?.flush);
  installMetrics(app, registry, http);
  // fastify reads text/plain by default; these APIs take JSON (and what a server adds), so other types are 415.
  app.removeContentTypeParser('text/plain');
  installJsonBodyParser(app);
  return app;
}

// Node checks for late heads every connectionsCheckingInterval (30 s by default): a shorter
// timeout is checked as often as it runs out, or it would be answered up to 30 s late.
function headersTimeout(ms: number | undefined): {headersTimeout?: number; connectionsCheckingInterval?: number} {
  return ms === undefined ? {} : {headersTimeout: ms, connectionsCheckingInterval: Math.min(ms, 30_000)};
}

// The HTTP/1 server fastify would make (its timeouts, Host not required), with the front first:
// below node:http on new connections, and on node's requests once a connection is node's.
function frontedServer(front: Front, log: RequestLine | undefined): FastifyServerFactory {
  return (handler, settings) => {
    const server = createHttpServer(settings.http ?? {requireHostHeader: false}, (request: IncomingMessage, response: ServerResponse) => {
      if (!answerFromFront(front, request, response)) handler(request, response);
      else if (log) log(request.method ?? '', request.url ?? '', response.statusCode);
    });
    installRawFront(server, front, log);
    // fastify has filled in its defaults by now.
    const timeouts = settings as {keepAliveTimeout?: number; requestTimeout?: number; connectionTimeout?: number};
    if (timeouts.keepAliveTimeout !== undefined) server.keepAliveTimeout = timeouts.keepAliveTimeout;
    if (timeouts.requestTimeout !== undefined) server.requestTimeout = timeouts.requestTimeout;
    if (timeouts.connectionTimeout !== undefined) server.setTimeout(timeouts.connectionTimeout);
    return server;
  };
}
