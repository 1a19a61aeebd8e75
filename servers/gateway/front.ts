import type {IncomingMessage, ServerResponse} from 'node:http';
import {chooseRepresentation, RESERVED_NAMES, type LocalGatewayService, type Representation} from '../../source/gateway/index.js';
import {feedHeaders, isCurrent} from './feed-headers.js';

// `/<name>` or `/<name>?format=<word>`, nothing percent-encoded: anything else goes to fastify.
const FEED_PATH = /^\/([A-Za-z0-9][A-Za-z0-9._-]*)(?:\?format=([a-z]+))?$/;

/**
 * The hot path (the figure: a cached feed at the speed of bare node:http): a GET or HEAD
 * of `/<name>` whose document and bytes are in memory is answered here, before fastify builds
 * its request and reply and runs its hooks. It answers as the route does (routes/feeds.ts), from
 * the same negotiation and headers (feed-headers.ts), and is public as the route is (no Host
 * check; no write); the kit logs what it answers. Everything else — a cold feed, an unknown name, odd queries, errors — falls
 * through to fastify, which answers it and warms the memory.
 */
export function feedFront(service: LocalGatewayService): (request: IncomingMessage, response: ServerResponse) => boolean {
  return (request, response) => {
    const {method, url} = request;
    if ((method !== 'GET' && method !== 'HEAD') || url === undefined) return false;
    const match = FEED_PATH.exec(url);
    if (match === null) return false;
    const name = match[1]!;
    if (RESERVED_NAMES.has(name.toLowerCase())) return false;
    let representation: Representation;
    try {
      representation = chooseRepresentation({format: match[2]}, {accept: request.headers.accept, userAgent: request.headers['user-agent']});
    } catch {
      return false;
    }
    const served = service.renderedNow(name, representation);
    if (served === undefined) return false;
    const headers = feedHeaders(name, served, representation, service.baseUrl());
    const status = isCurrent(served, request.headers) ? 304 : 200;
    // node's flat header list is its cheapest form (the headers are already valid).
    response.writeHead(status, (status === 200 ? headers.okList : headers.notModifiedList) as string[]);
    response.end(status === 200 && method === 'GET' ? served.rendered.body : undefined);
    return true;
  };
}
