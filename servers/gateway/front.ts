import type {IncomingMessage, ServerResponse} from 'node:http';
import {chooseRepresentation, RESERVED_NAMES, type LocalGatewayService, type Representation} from '../../source/gateway/index.js';
import {feedAnswer} from './feed-headers.js';

/** One line of the request log, as the kit's request log writes it. */
export type FrontLog = (method: string, url: string, status: number, ms: number) => void;

// `/<name>` or `/<name>?format=<word>`, nothing percent-encoded: anything else goes to fastify.
const FEED_PATH = /^\/([A-Za-z0-9][A-Za-z0-9._-]*)(?:\?format=([a-z]+))?$/;

/**
 * The hot path (the figure: a cached feed at the speed of bare node:http): a GET or HEAD
 * of `/<name>` whose document and bytes are in memory is answered here, before fastify builds
 * its request and reply and runs its hooks. It answers as the route does (routes/feeds.ts), from
 * the same negotiation and headers (feed-headers.ts), and is public as the route is (no Host
 * check; no write). Everything else — a cold feed, an unknown name, odd queries, errors — falls
 * through to fastify, which answers it and warms the memory.
 */
export function feedFront(service: LocalGatewayService, log?: FrontLog): (request: IncomingMessage, response: ServerResponse) => boolean {
  return (request, response) => {
    const {method, url} = request;
    if ((method !== 'GET' && method !== 'HEAD') || url === undefined) return false;
    const started = log && performance.now();
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
    const answer = feedAnswer(name, served, representation, service.baseUrl(), request.headers);
    if (answer.status === 200) answer.headers['content-length'] = String(served.rendered.body.length);
    response.writeHead(answer.status, answer.headers);
    response.end(answer.status === 200 && method === 'GET' ? served.rendered.body : undefined);
    if (log) log(method, url, answer.status, performance.now() - started!);
    return true;
  };
}
