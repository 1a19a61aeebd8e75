import {hubUrl, selfUrl, type Representation, type Served} from '../../source/gateway/index.js';
import {notModified} from '../kit/index.js';

/** The headers of a served feed, for 200 and for 304, as a name → value record and as node's flat [name, value, …] list. */
export interface FeedHeaders {
  ok: Readonly<Record<string, string>>;
  notModified: Readonly<Record<string, string>>;
  okList: readonly string[];
  notModifiedList: readonly string[];
}

// Made once per served representation (the service hands out the same Served while nothing changed).
const made = new WeakMap<Served, {name: string; representation: Representation; baseUrl: string; headers: FeedHeaders}>();

/**
 * The headers of a served feed (spec 2, part B): `Cache-Control: public, max-age=<poll interval
 * or 60>`; the strong ETag (from the items, never from build dates) and Last-Modified for
 * conditional GETs; `Vary: Accept` (the representation follows it); WebSub's hub and self links;
 * `X-Feed-Stale: true` while the origin fails; and, with the bytes, their type and length. The
 * fastify route and the server's front answer with these, so both answer alike.
 */
export function feedHeaders(name: string, served: Served, representation: Representation, baseUrl: string): FeedHeaders {
  const known = made.get(served);
  if (known && known.name === name && known.representation === representation && known.baseUrl === baseUrl) return known.headers;
  const {document, rendered} = served;
  const links = {baseUrl};
  const common: Record<string, string> = {
    'cache-control': `public, max-age=${document.maxAgeSeconds}`,
    etag: rendered.etag,
    'last-modified': rendered.lastModified,
    vary: 'Accept',
    link: `<${hubUrl(links)}>; rel="hub", <${selfUrl(links, name, representation)}>; rel="self"`,
  };
  if (document.stale) common['x-feed-stale'] = 'true';
  const ok = {...common, 'content-type': rendered.contentType, 'content-length': String(rendered.body.length)};
  const headers: FeedHeaders = {ok, notModified: common, okList: Object.entries(ok).flat(), notModifiedList: Object.entries(common).flat()};
  made.set(served, {name, representation, baseUrl, headers});
  return headers;
}

/** Whether the client's copy is current (If-None-Match, else If-Modified-Since): answer 304. */
export function isCurrent(served: Served, request: Readonly<Record<string, string | string[] | undefined>>): boolean {
  return notModified(request, served.rendered.etag, served.document.updatedAt);
}
