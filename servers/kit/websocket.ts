import type {Duplex} from 'node:stream';
import type {IncomingMessage} from 'node:http';
import type {FastifyInstance} from 'fastify';
import type {WebSocketServer} from 'ws';
import {HTTP_STATUS} from '../../source/core/errors.js';
import {crossSiteRefusal, hostRefusal} from '../../source/net/index.js';

export interface WebSocketRoute {
  /** The path WebSocket upgrades are taken on; others are answered 404. */
  path: string;
  /** A `noServer` ws server: the connection is handed to it once the guard let it through. */
  server: WebSocketServer;
  /** The address others reach the server at (as the HTTP guard accepts it). */
  publicUrl?: () => string | undefined;
}

function refuse(socket: Duplex, status: number, code: string, message: string): void {
  const body = JSON.stringify({error: {code, message}});
  socket.end(`HTTP/1.1 ${status} ${code}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

/**
 * Takes WebSocket upgrades at one path, behind the same guard as every HTTP request of the kit:
 * the Host must name this server (DNS rebinding), and the Origin must be its own or absent —
 * a WebSocket is not bound by CORS, so without this any page could open one and read what it
 * streams (cross-site WebSocket hijacking). Programs send no Origin and pass.
 */
export function acceptWebSockets(app: FastifyInstance, route: WebSocketRoute): void {
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== route.path) return refuse(socket, 404, 'not_found', `no WebSocket at ${path}; subscriptions are at ${route.path}`);
    const publicUrl = route.publicUrl?.();
    const refusal = hostRefusal(request.headers.host, request.socket, publicUrl) ?? crossSiteRefusal('WebSocket', request.headers, publicUrl);
    if (refusal) return refuse(socket, HTTP_STATUS[refusal.code] ?? 403, refusal.code, refusal.message);
    route.server.handleUpgrade(request, socket, head, (ws) => route.server.emit('connection', ws, request));
  };
  app.server.on('upgrade', onUpgrade);
  app.addHook('onClose', async () => {
    app.server.off('upgrade', onUpgrade);
    for (const client of route.server.clients) client.terminate();
    await new Promise<void>((resolve) => route.server.close(() => resolve()));
  });
}
