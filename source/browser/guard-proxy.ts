import {createServer, request as httpRequest, type IncomingMessage, type ServerResponse} from 'node:http';
import {connect, type AddressInfo, type Socket} from 'node:net';
import type {Duplex} from 'node:stream';
import {AddressGuard, isOutboundError, type AddressPolicy} from '../net/index.js';

/**
 * A forward proxy on 127.0.0.1 that every request of a driven browser goes through, so the address
 * policy of source/net holds for the browser as for our own client: checked on the address actually
 * dialled (a DNS name that turns into 169.254.169.254 is caught), for every hop of a redirect, every
 * frame, worker, fetch and WebSocket. Request interception in the page cannot do this: redirects
 * and out-of-process frames pass it by.
 */
export interface GuardProxy {
  /** `http://127.0.0.1:<port>`, for playwright's `proxy.server`. */
  url: string;
  /** What the policy refused, each reason once (at most 20). */
  refused: string[];
  /** Hosts that could not be reached (`127.0.0.1:3000: ECONNREFUSED`), each once (at most 20). */
  unreachable: string[];
  close(): Promise<void>;
}

/** Marks the answer to a refused plain-HTTP request, so a page load can tell a refusal from a real 403. */
export const REFUSED_HEADER = 'x-workbench-refused';
/** Marks the 502 the proxy answers when the host cannot be reached; its value is the system error code (ECONNREFUSED…). */
export const UNREACHABLE_HEADER = 'x-workbench-unreachable';

// Hop-by-hop headers (RFC 9110 7.6.1) and the proxy's own: never forwarded.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'upgrade', 'transfer-encoding']);

export async function startGuardProxy(policy: AddressPolicy): Promise<GuardProxy> {
  const refused: string[] = [];
  const unreachable: string[] = [];
  const sockets = new Set<Socket | Duplex>();
  const notes: Notes = {refused: (reason) => remember(refused, reason), unreachable: (reason) => remember(unreachable, reason)};

  const server = createServer((request, response) => forward(request, response, policy, notes));
  server.on('connect', (request: IncomingMessage, client: Duplex, head: Buffer) => tunnel(request, client, head, policy, notes, sockets));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    refused,
    unreachable,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

interface Notes {
  refused(reason: string): void;
  unreachable(reason: string): void;
}

function remember(list: string[], reason: string): void {
  if (list.length < 20 && !list.includes(reason)) list.push(reason);
}

/** The system error code of a failed connection (ECONNREFUSED, ENOTFOUND…). */
function errorCode(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  return typeof code === 'string' && /^[A-Z_]+$/.test(code) ? code : 'ECONNRESET';
}

/** A plain-HTTP request in absolute form (`GET http://host/path`): checked, then forwarded and streamed back. */
function forward(request: IncomingMessage, response: ServerResponse, policy: AddressPolicy, notes: Notes): void {
  let url: URL;
  try {
    url = new URL(request.url ?? '');
  } catch {
    response.writeHead(400, {'content-type': 'text/plain'}).end('workbench guard proxy: not an absolute URL');
    return;
  }
  if (url.protocol !== 'http:') {
    response.writeHead(400, {'content-type': 'text/plain'}).end('workbench guard proxy: http only (https goes through CONNECT)');
    return;
  }
  const guard = new AddressGuard(policy);
  const refuse = (reason: string) => {
    notes.refused(reason);
    if (!response.headersSent) response.writeHead(403, {'content-type': 'text/plain; charset=utf-8', [REFUSED_HEADER]: '1'}).end(reason);
    else response.destroy();
  };
  try {
    guard.checkLiteral(url);
  } catch (error) {
    if (isOutboundError(error)) return refuse(error.message);
    throw error;
  }
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(request.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  const upstream = httpRequest({
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port || 80,
    method: request.method,
    path: `${url.pathname}${url.search}`,
    headers,
    lookup: guard.lookupFor(url),
  });
  upstream.on('response', (answer) => {
    const raw: string[] = [];
    for (let index = 0; index < answer.rawHeaders.length; index += 2) {
      if (!HOP_BY_HOP.has(answer.rawHeaders[index]!.toLowerCase())) raw.push(answer.rawHeaders[index]!, answer.rawHeaders[index + 1]!);
    }
    response.writeHead(answer.statusCode ?? 502, answer.statusMessage, raw);
    answer.pipe(response);
    answer.on('error', () => response.destroy());
  });
  upstream.on('error', (error) => {
    if (isOutboundError(error) && error.kind === 'refused') return refuse(error.message);
    if (response.headersSent) return response.destroy();
    const code = errorCode(error);
    notes.unreachable(`${url.host}: ${code}`);
    response.writeHead(502, {'content-type': 'text/plain; charset=utf-8', [UNREACHABLE_HEADER]: code}).end(`workbench guard proxy: ${url.host}: ${code}`);
  });
  request.pipe(upstream);
  response.on('close', () => upstream.destroy());
}

/** `CONNECT host:port` (https, wss): the address is checked as the tunnel is dialled; a refusal answers 403. */
function tunnel(request: IncomingMessage, client: Duplex, head: Buffer, policy: AddressPolicy, notes: Notes, sockets: Set<Socket | Duplex>): void {
  sockets.add(client);
  client.on('close', () => sockets.delete(client));
  client.on('error', () => client.destroy());
  let url: URL;
  try {
    url = new URL(`https://${request.url ?? ''}`);
  } catch {
    client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    return;
  }
  const guard = new AddressGuard(policy);
  try {
    guard.checkLiteral(url);
  } catch (error) {
    if (!isOutboundError(error)) throw error;
    notes.refused(error.message);
    client.end(`HTTP/1.1 403 Forbidden\r\n${REFUSED_HEADER}: 1\r\n\r\n`);
    return;
  }
  const upstream = connect({host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 443), lookup: guard.lookupFor(url)});
  sockets.add(upstream);
  upstream.on('close', () => sockets.delete(upstream));
  upstream.once('connect', () => {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on('error', (error) => {
    if (isOutboundError(error) && error.kind === 'refused') {
      notes.refused(error.message);
      client.end(`HTTP/1.1 403 Forbidden\r\n${REFUSED_HEADER}: 1\r\n\r\n`);
    } else if (!client.destroyed) {
      notes.unreachable(`${url.host}: ${errorCode(error)}`);
      client.end(`HTTP/1.1 502 Bad Gateway\r\n${UNREACHABLE_HEADER}: ${errorCode(error)}\r\n\r\n`);
    }
    upstream.destroy();
  });
  client.on('close', () => upstream.destroy());
}
