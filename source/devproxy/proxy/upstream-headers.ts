import type {IncomingMessage, OutgoingHttpHeaders} from 'node:http';
import {endToEndHeaders} from './hop-headers.js';
import type {Target} from './target.js';

// The encodings the injector can undo (node:zlib); others (zstd) are not offered to the target.
const DECODABLE = new Set(['gzip', 'deflate', 'br', 'identity', '*']);

/**
 * What the target receives: the browser's headers as if the browser had asked the target itself
 * (its Host, its Origin), plus where the request really came from (X-Forwarded-*) and the trace.
 */
export function upstreamHeaders(request: IncomingMessage, target: Target, traceparent: string): OutgoingHttpHeaders {
  const incoming = request.headers;
  const headers = endToEndHeaders(incoming);
  const proxyHost = incoming.host ?? '';
  headers.host = target.host;
  headers.traceparent = traceparent;
  const client = request.socket.remoteAddress ?? '';
  headers['x-forwarded-for'] = incoming['x-forwarded-for'] ? `${incoming['x-forwarded-for']}, ${client}` : client;
  if (!incoming['x-forwarded-host']) headers['x-forwarded-host'] = proxyHost;
  if (!incoming['x-forwarded-proto']) headers['x-forwarded-proto'] = 'http';
  // Apps that check Origin against their own address (CSRF guards, Vite's WebSocket) see their own.
  if (incoming.origin && incoming.origin.toLowerCase() === `http://${proxyHost.toLowerCase()}`) headers.origin = target.origin;
  const accepted = incoming['accept-encoding'];
  if (accepted) {
    const decodable = accepted
      .split(',')
      .filter((item) => DECODABLE.has(item.split(';')[0]!.trim().toLowerCase()))
      .join(',');
    if (decodable) headers['accept-encoding'] = decodable;
    else delete headers['accept-encoding'];
  }
  if (request.headers.upgrade) {
    headers.connection = 'Upgrade';
    headers.upgrade = request.headers.upgrade;
  }
  return headers;
}
