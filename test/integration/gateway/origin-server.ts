// A feed origin on 127.0.0.1 whose behaviour a test sets between polls: a feed with an ETag and
// Last-Modified (answering 304 to either validator), an HTTP error with Retry-After, any body,
// or no answer at all (held until released, or forever for a timeout).
import type http from 'node:http';
import {startOrigin, type TestOrigin} from '../../helpers/test-network.js';

export type OriginMode =
  | {kind: 'feed'; body: string; contentType?: string; etag?: string | null; lastModified?: string | null}
  | {kind: 'status'; status: number; retryAfter?: string}
  | {kind: 'body'; body: string | Buffer; contentType: string}
  | {kind: 'hang'}
  /** Requests wait until release() (for coalescing), then answer as `then`. */
  | {kind: 'hold'; then: OriginMode};

export interface FeedOrigin {
  url: string;
  port: number;
  mode: OriginMode;
  /** Each request's conditional headers, in order. */
  requests: {ifNoneMatch: string | null; ifModifiedSince: string | null}[];
  /** Answers the held requests. */
  release(): void;
  close(): Promise<void>;
}

export async function startFeedOrigin(mode: OriginMode, path = '/feed.xml'): Promise<FeedOrigin> {
  let held: (() => void)[] = [];
  const state: FeedOrigin = {
    url: '',
    port: 0,
    mode,
    requests: [],
    release() {
      const waiting = held;
      held = [];
      for (const answer of waiting) answer();
    },
    close: async () => {
      state.release();
      await server.close();
    },
  };
  const answer = (current: OriginMode, request: http.IncomingMessage, response: http.ServerResponse): void => {
    switch (current.kind) {
      case 'hang':
        return;
      case 'hold':
        held.push(() => answer(current.then, request, response));
        return;
      case 'status':
        response.writeHead(current.status, current.retryAfter ? {'retry-after': current.retryAfter} : {});
        response.end('origin error');
        return;
      case 'body':
        response.writeHead(200, {'content-type': current.contentType});
        response.end(current.body);
        return;
      case 'feed': {
        const etag = current.etag === undefined ? '"v1"' : current.etag;
        const lastModified = current.lastModified === undefined ? 'Mon, 01 Jan 2024 00:00:00 GMT' : current.lastModified;
        const validators: Record<string, string> = {};
        if (etag) validators.etag = etag;
        if (lastModified) validators['last-modified'] = lastModified;
        const matches = (etag && request.headers['if-none-match'] === etag) || (!etag && lastModified && request.headers['if-modified-since'] === lastModified);
        if (matches) {
          response.writeHead(304, validators);
          response.end();
          return;
        }
        response.writeHead(200, {'content-type': current.contentType ?? 'application/rss+xml; charset=utf-8', ...validators});
        response.end(current.body);
      }
    }
  };
  const server: TestOrigin = await startOrigin((request, response) => {
    state.requests.push({ifNoneMatch: header(request, 'if-none-match'), ifModifiedSince: header(request, 'if-modified-since')});
    answer(state.mode, request, response);
  });
  state.port = server.port;
  state.url = `http://127.0.0.1:${server.port}${path}`;
  return state;
}

function header(request: http.IncomingMessage, name: string): string | null {
  const value = request.headers[name];
  return typeof value === 'string' ? value : null;
}

export interface Entry {
  guid?: string;
  title: string;
  link?: string;
  description?: string;
  date?: string;
}

/** RSS 2.0 with these entries; `buildDate` changes on every rebuild of a real origin. */
export function rss(entries: Entry[], options: {title?: string; buildDate?: string} = {}): string {
  const items = entries
    .map(
      (entry) =>
        `<item>${entry.guid ? `<guid isPermaLink="false">${entry.guid}</guid>` : ''}<title>${entry.title}</title>${entry.link ? `<link>${entry.link}</link>` : ''}${
          entry.description ? `<description><![CDATA[${entry.description}]]></description>` : ''
        }${entry.date ? `<pubDate>${new Date(entry.date).toUTCString()}</pubDate>` : ''}</item>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0"><channel><title>${options.title ?? 'Origin news'}</title><link>/</link><description>What the origin says</description>
<lastBuildDate>${options.buildDate ?? 'Mon, 01 Jan 2024 00:00:00 GMT'}</lastBuildDate>
${items}
</channel></rss>`;
}

/** Atom 1.0 with these entries. */
export function atom(entries: Entry[], title = 'Origin atom'): string {
  const items = entries
    .map(
      (entry) =>
        `<entry><id>${entry.guid ?? entry.link}</id><title>${entry.title}</title>${entry.link ? `<link href="${entry.link}"/>` : ''}<updated>${entry.date ?? '2024-01-01T00:00:00Z'}</updated>${
          entry.description ? `<content type="html">${entry.description.replace(/</g, '&lt;')}</content>` : ''
        }</entry>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>${title}</title><id>urn:test:atom</id><updated>2024-01-01T00:00:00Z</updated><link rel="alternate" href="/site/"/>
${items}
</feed>`;
}
