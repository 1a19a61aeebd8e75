import type {IncomingHttpHeaders} from 'node:http';
import {hubUrl, selfUrl, type Representation, type Served} from '../../source/gateway/index.js';
import {notModified} from '../kit/index.js';

/** How `/<name>` answers: 200 with the bytes, or 304 when the client's copy is current; the same headers either way. */
export interface FeedAnswer {
  status: 200 | 304;
  headers: Record<string, string>;
}

/**
 * The headers of a served feed (spec 2, part B): its type; `Cache-Control: public,
 * max-age=<poll interval or 60>`; the strong ETag (from the items, never from build dates) and
 * Last-Modified for conditional GETs; `Vary: Accept` (the representation follows it);
 * WebSub's hub and self links; `X-Feed-Stale: true` while the origin fails. The fastify route and
 * the server's front answer with these, so both answer alike.
 */
export function feedAnswer(name: string, served: Served, representation: Representation, baseUrl: string, request: IncomingHttpHeaders): FeedAnswer {
  const {document, rendered} = served;
  const links = {baseUrl};
  const headers: Record<string, string> = {
    'cache-control': `public, max-age=${document.maxAgeSeconds}`,
    etag: rendered.etag,
    'last-modified': rendered.lastModified,
    vary: 'Accept',
    link: `<${hubUrl(links)}>; rel="hub", <${selfUrl(links, name, representation)}>; rel="self"`,
  };
  if (document.stale) headers['x-feed-stale'] = 'true';
  if (notModified(request, rendered.etag, document.updatedAt)) return {status: 304, headers};
  headers['content-type'] = rendered.contentType;
  return {status: 200, headers};
}
