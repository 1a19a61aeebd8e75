import {chooseRepresentation, RESERVED_NAMES, type LocalGatewayService, type Representation} from '../../source/gateway/index.js';
import type {Front} from '../kit/index.js';
import {feedHeaders, isCurrent} from './feed-headers.js';

// `/<name>` or `/<name>?format=<word>`, nothing percent-encoded: anything else goes to fastify.
const FEED_PATH = /^\/([A-Za-z0-9][A-Za-z0-9._-]*)(?:\?format=([a-z]+))?$/;

/**
 * The hot path (the figure: a cached feed at the speed of bare node:http): a GET or HEAD
 * of `/<name>` whose document and bytes are in memory is answered by the kit's front
 * (servers/kit/front.ts), before fastify builds its request and reply and runs its hooks. It
 * answers as the route does (routes/feeds.ts), from the same negotiation and headers
 * (feed-headers.ts), and is public as the route is (no Host check; no write); the kit logs what it
 * answers. Everything else — a cold feed, an unknown name, odd queries, errors — falls through to
 * fastify, which answers it and warms the memory.
 */
export function feedFront(service: LocalGatewayService): Front {
  return ({url, headers}) => {
    const match = FEED_PATH.exec(url);
    if (match === null) return undefined;
    const name = match[1]!;
    if (RESERVED_NAMES.has(name.toLowerCase())) return undefined;
    let representation: Representation;
    try {
      representation = chooseRepresentation({format: match[2]}, {accept: headers['accept'], userAgent: headers['user-agent']});
    } catch {
      return undefined;
    }
    const served = service.renderedNow(name, representation);
    if (served === undefined) return undefined;
    const list = feedHeaders(name, served, representation, service.baseUrl());
    return isCurrent(served, headers) ? {status: 304, headers: list.notModifiedList} : {status: 200, headers: list.okList, body: served.rendered.body};
  };
}
