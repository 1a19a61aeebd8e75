import http, {type IncomingMessage, type ServerResponse} from 'node:http';
import type {Duplex} from 'node:stream';
import {HTTP_STATUS, WorkbenchError} from '../core/errors.js';
import {crossSiteRefusal, hostRefusal} from '../net/index.js';
import {PageChannel} from './channel/page-channel.js';
import {PageScript} from './inject/page-script.js';
import {TrafficRing, type NewTrafficEntry} from './log/traffic-ring.js';
import {CLIENT_CLOSED, Forwarder} from './proxy/forward.js';
import {listenOn} from './proxy/listen.js';
import {resolveOptions} from './proxy/options.js';
import {forwardUpgrade} from './proxy/upgrade.js';
import {CHANNEL_PATH, RESERVED_PREFIX, type DevProxy, type ProxyInfo, type ProxyOptions, type TrafficEntry} from './types.js';

export interface ProxyRuntime {
  /** The page script's JavaScript source, inlined into every HTML page. */
  pageScript: string;
  /** Maps a browser stack through the page's source maps; the raw stack is kept when it fails. */
  mapStack?: (stack: string, pageUrl: string) => Promise<string>;
}

/**
 * Starts a dev proxy: a reverse proxy in front of a dev server that forwards everything, injects
 * the page script into HTML, answers the page channel on its reserved path, and logs the traffic.
 * Only requests that name the proxy's own address get in (DNS rebinding); what the app allows
 * across sites is the app's business, so forwarded requests see no cross-site check — the channel,
 * which is ours, does.
 */
export async function startProxy(options: ProxyOptions, runtime: ProxyRuntime): Promise<DevProxy> {
  const resolved = resolveOptions(options);
  const {id, target} = resolved;
  const ring = new TrafficRing(resolved.logSize);
  const counters = {requests: 0, errors: 0};
  let info: Omit<ProxyInfo, 'requests' | 'errors' | 'pages'> = {id, target: target.text, url: '', port: 0, startedAt: Date.now(), logSize: resolved.logSize};

  const record = (fresh: NewTrafficEntry) => {
    const entry = ring.add(fresh);
    if (entry.type === 'http') counters.requests++;
    if (isError(entry)) counters.errors++;
    if (entry.type === 'http' && entry.page && (entry.status === 0 || (entry.status >= 400 && entry.status !== CLIENT_CLOSED))) channel.failedRequest(entry.page);
  };
  const channel = new PageChannel({record, mapStack: runtime.mapStack, describe: () => ({id, url: info.url})});
  const forwarder = new Forwarder({target, script: new PageScript(runtime.pageScript), timeoutMs: resolved.targetTimeoutMs, record});
  const upgraded = new Set<Duplex>();
  const track = (socket: Duplex) => {
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
  };

  // The Host each connection last passed the check with: a browser names the same host on every request of a kept-alive connection.
  const allowedHost = new WeakMap<Duplex, string>();
  const server = http.createServer({noDelay: true, keepAlive: true}, (request: IncomingMessage, response: ServerResponse) => {
    const host = request.headers.host;
    if (host === undefined || allowedHost.get(request.socket) !== host) {
      const refusal = hostRefusal(host, request.socket);
      if (refusal) return refuse(response, refusal);
      if (host !== undefined) allowedHost.set(request.socket, host);
    }
    if (request.url?.startsWith(RESERVED_PREFIX)) return answerReserved(request, response);
    forwarder.forward(request, response);
  });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const refusal = hostRefusal(request.headers.host, request.socket) ?? (isChannel(request) ? crossSiteRefusal('WebSocket', request.headers) : undefined);
    if (refusal) return refuseSocket(socket, refusal);
    if (isChannel(request)) return channel.accept(request, socket, head);
    if (request.url?.startsWith(RESERVED_PREFIX)) return refuseSocket(socket, notReserved(request));
    forwardUpgrade(forwarder, request, socket, head, track);
  });
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    else socket.destroy();
  });

  const port = await listenOn(server, resolved.host, resolved.port, resolved.nextFree);
  const shownHost = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host === '0.0.0.0' ? '127.0.0.1' : resolved.host;
  info = {...info, port, url: `http://${shownHost}:${port}`};

  let stopped: Promise<void> | undefined;
  return {
    get info(): ProxyInfo {
      return {...info, requests: counters.requests, errors: counters.errors, pages: channel.connectedPages()};
    },
    records: () => ring.records(id),
    log: (query) => ring.query(query),
    pages: () => channel.pages(),
    exec: async (code, execOptions) => channel.exec(code, execOptions),
    onEntry: (listener) => ring.onEntry(listener),
    stop() {
      stopped ??= (async () => {
        channel.close();
        for (const socket of upgraded) socket.destroy();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await Promise.all([closed, forwarder.close().catch(() => {})]);
      })();
      return stopped;
    },
  };
}

/** What counts in ProxyInfo.errors: what the inbox shows as an error. */
function isError(entry: TrafficEntry): boolean {
  switch (entry.type) {
    case 'http':
      return entry.status === 0 || entry.status >= 500;
    case 'error':
      return true;
    case 'custom':
      return entry.level === 'error';
    case 'diagnostic':
      return entry.level === 'error' && !entry.inHttpEntry;
    default:
      return false;
  }
}

function isChannel(request: IncomingMessage): boolean {
  const url = request.url ?? '';
  return url === CHANNEL_PATH || url.startsWith(`${CHANNEL_PATH}?`);
}

function notReserved(request: IncomingMessage): WorkbenchError {
  return new WorkbenchError('not_found', `${(request.url ?? '').slice(0, 200)} is reserved by the workbench proxy and is not forwarded; the page channel is ${CHANNEL_PATH}`);
}

function answerReserved(request: IncomingMessage, response: ServerResponse): void {
  if (isChannel(request)) {
    const body = JSON.stringify({error: {code: 'bad_request', message: `${CHANNEL_PATH} is the page channel: a WebSocket, not a page`}});
    response.writeHead(426, {'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), upgrade: 'websocket'});
    response.end(body);
    return;
  }
  refuse(response, notReserved(request));
}

function refuse(response: ServerResponse, error: WorkbenchError): void {
  const body = JSON.stringify({error: {code: error.code, message: error.message}});
  response.writeHead(HTTP_STATUS[error.code] ?? 400, {'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store'});
  response.end(body);
}

function refuseSocket(socket: Duplex, error: WorkbenchError): void {
  const body = JSON.stringify({error: {code: error.code, message: error.message}});
  const status = HTTP_STATUS[error.code] ?? 400;
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
