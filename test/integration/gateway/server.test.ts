// The feed gateway as `workbench serve gateway` runs it (startGatewayServer: store opened and
// migrated, 127.0.0.1, the front for cached feeds), spoken to over real sockets, with origins on
// 127.0.0.1 that can be made to fail: every status row of spec 2 part B, negotiation, headers and
// 304s, stale-on-error across a restart, channels with their limits, and the Host/Origin guard.
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import http, {type IncomingHttpHeaders} from 'node:http';
import type {AddressInfo} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest';
import {startGatewayServer, type GatewayServer} from '../../../servers/gateway/index.js';
import {fetchFeed} from '../../../source/feeds/fetcher/index.js';
import {parseFeed} from '../../../source/feeds/parser/index.js';
import {CHANNEL_ITEM_MAX_BYTES, type GatewayConfig} from '../../../source/gateway/index.js';
import {makeSandbox, runCli, type Sandbox} from '../../helpers/cli.js';
import {parseText} from '../../../source/metrics/parse-text.js';

const SECRET = 'refresh-secret-for-tests-0123456789';
const HOUR = 3_600_000;

// ——— An origin that can be told to fail ———

type OriginMode = 'ok' | 'down' | 'garbage' | 'html' | 'slow' | 'hold';

interface Origin {
  url: string;
  mode: OriginMode;
  /** Bumped to change the feed's content. */
  version: number;
  hits: number;
  /** Answers the requests held in mode 'hold'. */
  release(): void;
  close(): Promise<void>;
}

function originXml(version: number): string {
  const items = Array.from(
    {length: 5},
    (_, i) =>
      `<item><guid>https://origin.test/posts/${version}-${i}</guid><title>Post ${i} of version ${version}</title><link>https://origin.test/posts/${version}-${i}</link>` +
      `<description>Body &lt;b&gt;${i}&lt;/b&gt;</description><pubDate>${new Date(Date.UTC(2026, 10, 1) - i * HOUR).toUTCString()}</pubDate></item>`,
  ).join('');
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>Origin News</title><link>https://origin.test/</link><description>What happened</description>${items}</channel></rss>`;
}

async function startOrigin(): Promise<Origin> {
  const held: (() => void)[] = [];
  const origin: Origin = {url: '', mode: 'ok', version: 1, hits: 0, release: () => held.splice(0).forEach((answer) => answer()), close: async () => {}};
  const server = http.createServer((request, response) => {
    origin.hits++;
    if (origin.mode === 'slow') return; // never answers: the fetch's deadline ends it
    if (origin.mode === 'hold') return held.push(() => answer(request, response));
    answer(request, response);
  });
  function answer(request: http.IncomingMessage, response: http.ServerResponse) {
    if (origin.mode === 'down') return response.writeHead(503).end('down for maintenance');
    if (origin.mode === 'garbage') return response.writeHead(200, {'content-type': 'application/rss+xml'}).end('\u0000\u0001 not xml at all');
    if (origin.mode === 'html') return response.writeHead(200, {'content-type': 'text/html'}).end('<!doctype html><title>A page</title><p>no feed here');
    const etag = `"v${origin.version}"`;
    if (request.headers['if-none-match'] === etag) return response.writeHead(304, {etag}).end();
    response.writeHead(200, {'content-type': 'application/rss+xml', etag}).end(originXml(origin.version));
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  origin.close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return origin;
}

// ——— HTTP over node:http (fetch cannot set Host, and costs more per request) ———

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
  // The parsed JSON answer; each test's assertions check its shape.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

const agent = new http.Agent({keepAlive: true});

function call(base: string, method: string, path: string, options: {headers?: Record<string, string>; body?: string | Buffer; json?: unknown} = {}): Promise<Answer> {
  const body = options.json === undefined ? options.body : JSON.stringify(options.json);
  const headers: Record<string, string> = {...(options.json === undefined ? {} : {'content-type': 'application/json'}), ...options.headers};
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const request = http.request(`${base}${path}`, {method, headers, agent}, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const text = bytes.toString('utf8');
        let json: unknown;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({status: response.statusCode!, headers: response.headers, body: bytes, text, json});
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}

function expectError(answer: Answer, status: number, code: string): void {
  expect({status: answer.status, code: answer.json?.error?.code}).toEqual({status, code});
  expect(typeof answer.json.error.message).toBe('string');
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
}

// ——— The server ———

let dir: string;
let origin: Origin;
let server: GatewayServer;
let skew = 0;
let config: GatewayConfig;
const previousHome = process.env.WORKBENCH_HOME;

// The origin's deadline is short so the slow origin fails within the test.
const quickFetch: typeof fetchFeed = (url, options) => fetchFeed(url, {...options, timeoutMs: 1_000});

function start(options: {refreshToken?: string; background?: boolean; now?: () => number} = {}): Promise<GatewayServer> {
  return startGatewayServer({
    port: 0,
    db: join(dir, 'gateway.sqlite'),
    config,
    refreshToken: 'refreshToken' in options ? options.refreshToken : SECRET,
    background: options.background ?? false,
    fetch: quickFetch,
    now: options.now,
    logFile: join(dir, 'gateway.log'),
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-gateway-server-'));
  process.env.WORKBENCH_HOME = join(dir, 'home');
  origin = await startOrigin();
  config = {
    feeds: [
      {name: 'news', origin: `${origin.url}/feed.xml`, pollIntervalMs: 15 * 60_000},
      {name: 'titled', origin: `${origin.url}/other.xml`, pollIntervalMs: 600_000, title: 'A title of our own'},
    ],
  };
  server = await start({now: () => Date.now() + skew});
});
afterAll(async () => {
  await server?.close();
  await origin?.close();
  agent.destroy();
  if (previousHome === undefined) delete process.env.WORKBENCH_HOME;
  else process.env.WORKBENCH_HOME = previousHome;
  rmSync(dir, {recursive: true, force: true});
});

const get = (path: string, headers?: Record<string, string>) => call(server.url, 'GET', path, {headers});
const refresh = (name: string, headers: Record<string, string> = {authorization: `Bearer ${SECRET}`}, base = server.url) =>
  call(base, 'POST', `/api/feeds/${name}/refresh`, {headers});

describe('proxied feeds', () => {
  it('a configured feed never polled answers 404, saying so', async () => {
    const fresh = await startGatewayServer({port: 0, db: join(dir, 'fresh.sqlite'), config, refreshToken: SECRET, background: false});
    try {
      const answer = await call(fresh.url, 'GET', '/news');
      expectError(answer, 404, 'not_found');
      expect(answer.json.error.message).toContain('no good copy of its origin yet');
    } finally {
      await fresh.close();
    }
  });

  it('the refresh webhook polls the origin: 200 ok, then not-modified with the conditional headers sent', async () => {
    const first = await refresh('news');
    expect(first.status).toBe(200);
    expect(first.json).toEqual({id: 'news', status: 'ok'});
    const again = await refresh('news');
    expect(again.status).toBe(200);
    expect(again.json).toEqual({id: 'news', status: 'not-modified'});
    expect((await refresh('titled')).json).toEqual({id: 'titled', status: 'ok'});
  });

  it('GET /<name> is RSS 2.0 by default, with every header of the spec', async () => {
    const answer = await get('/news');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('public, max-age=900');
    expect(answer.headers.etag).toMatch(/^"[^"]+"$/);
    expect(Date.parse(answer.headers['last-modified']!)).not.toBeNaN();
    expect(answer.headers.vary).toBe('Accept');
    expect(answer.headers.link).toBe(`<${server.url}/api/websub>; rel="hub", <${server.url}/news>; rel="self"`);
    expect(answer.headers['x-feed-stale']).toBeUndefined();
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    const feed = parseFeed(answer.body, answer.headers['content-type']);
    expect(feed.version).toBe('RSS 2.0');
    expect(feed.title).toBe('Origin News');
    expect(feed.items.map((item) => item.title)).toEqual([0, 1, 2, 3, 4].map((i) => `Post ${i} of version 1`));
    expect(feed.items[0]!.link).toBe('https://origin.test/posts/1-0');
  });

  it('?format=atom gives Atom 1.0 and beats Accept; every representation parses back with the same items', async () => {
    const browser = {accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0'};
    const atom = await get('/news?format=atom', browser);
    expect(atom.status).toBe(200);
    expect(atom.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(atom.headers.link).toBe(`<${server.url}/api/websub>; rel="hub", <${server.url}/news?format=atom>; rel="self"`);
    const parsed = parseFeed(atom.body, atom.headers['content-type']);
    expect(parsed.version).toBe('Atom 1.0');
    expect(parsed.items.map((item) => item.title)).toEqual([0, 1, 2, 3, 4].map((i) => `Post ${i} of version 1`));
    const rss = await get('/news?format=rss', browser);
    expect(parseFeed(rss.body, rss.headers['content-type']).version).toBe('RSS 2.0');
    expect(rss.headers.etag).not.toBe(atom.headers.etag);
    // A feed title from the config replaces the origin's in every representation.
    for (const format of ['rss', 'atom']) {
      const titled = await get(`/titled?format=${format}`);
      expect(parseFeed(titled.body, titled.headers['content-type']).title).toBe('A title of our own');
    }
  });

  it('a browser asking for text/html gets the landing page; curl and feed readers get the feed', async () => {
    const page = await get('/news', {accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8', 'user-agent': 'Mozilla/5.0 (Macintosh) Safari/605.1.15'});
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('Origin News');
    expect(page.text).toContain(`${server.url}/news?format=atom`);
    expect(page.text).toContain('Post 0 of version 1');
    expect((await get('/news', {accept: 'text/html', 'user-agent': 'curl/8.5.0'})).headers['content-type']).toMatch(/^application\/rss\+xml/);
    expect((await get('/news', {accept: 'text/html', 'user-agent': 'Mozilla/5.0 (compatible; Feedly/1.0)'})).headers['content-type']).toMatch(/^application\/rss\+xml/);
    expect((await get('/news?format=html')).headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('HEAD answers the headers without the body', async () => {
    const full = await get('/news');
    const head = await call(server.url, 'HEAD', '/news');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const name of ['content-type', 'cache-control', 'etag', 'last-modified', 'vary', 'link', 'content-length']) expect(head.headers[name]).toBe(full.headers[name]);
  });

  it('conditional GETs answer 304 with no body: If-None-Match (strong and weak, lists, *) and If-Modified-Since', async () => {
    const full = await get('/news');
    const etag = full.headers.etag!;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const answer = await get('/news', {'if-none-match': ifNoneMatch});
      expect(answer.status).toBe(304);
      expect(answer.body.length).toBe(0);
      expect(answer.headers.etag).toBe(etag);
      expect(answer.headers['cache-control']).toBe('public, max-age=900');
    }
    expect((await get('/news', {'if-modified-since': full.headers['last-modified']!})).status).toBe(304);
    expect((await get('/news', {'if-none-match': '"something else"'})).status).toBe(200);
    expect((await get('/news', {'if-modified-since': new Date(Date.parse(full.headers['last-modified']!) - 60_000).toUTCString()})).status).toBe(200);
    // If-None-Match decides when both are sent.
    expect((await get('/news', {'if-none-match': '"something else"', 'if-modified-since': full.headers['last-modified']!})).status).toBe(200);
    expect((await get('/news', {'if-modified-since': 'not a date'})).status).toBe(200);
  });

  it('the fastify route and the front answer alike', async () => {
    const wire = await get('/news?format=atom');
    const routed = await server.app.inject({method: 'GET', url: '/news?format=atom'});
    expect(routed.statusCode).toBe(200);
    expect(routed.rawPayload.equals(wire.body)).toBe(true);
    for (const name of ['content-type', 'cache-control', 'etag', 'last-modified', 'vary', 'link', 'content-length']) expect(routed.headers[name]).toBe(wire.headers[name]);
    const notModified = await server.app.inject({method: 'GET', url: '/news?format=atom', headers: {'if-none-match': wire.headers.etag!}});
    expect(notModified.statusCode).toBe(304);
    expect(notModified.rawPayload.length).toBe(0);
  });

  it('counts the cached feeds the front answers on /metrics, under the route they stand for', async () => {
    const served = async (status: string) => {
      const families = parseText((await get('/metrics')).body.toString('utf8'));
      const requests = families.find((family) => family.name === 'http_requests_total')!;
      const sample = requests.samples.find((item) => item.labels.route === '/:name' && item.labels.method === 'GET' && item.labels.status === status);
      return sample?.value ?? 0;
    };
    const before = await served('200');
    const answer = await get('/news');
    expect(answer.status).toBe(200);
    await get('/news');
    expect(await served('200')).toBe(before + 2);
    const notModifiedBefore = await served('304');
    expect((await get('/news', {'if-none-match': answer.headers.etag!})).status).toBe(304);
    expect(await served('304')).toBe(notModifiedBefore + 1);
  });

  it('the ETag follows the items, not the poll: a new origin version changes it, a re-poll of the same does not', async () => {
    const before = (await get('/news')).headers.etag;
    expect((await refresh('news')).json.status).toBe('not-modified');
    expect((await get('/news')).headers.etag).toBe(before);
    origin.version = 2;
    expect((await refresh('news')).json).toEqual({id: 'news', status: 'ok'});
    const after = await get('/news');
    expect(after.headers.etag).not.toBe(before);
    expect(parseFeed(after.body).items[0]!.title).toBe('Post 0 of version 2');
    expect((await get('/news', {'if-none-match': before!})).status).toBe(200);
  });

  it('bad queries and names: 400 for an unknown format or parameter, 404 JSON for an unknown name or a reserved one', async () => {
    expectError(await get('/news?format=json'), 400, 'invalid_argument');
    expectError(await get('/news?format=atom&format=rss'), 400, 'invalid_argument');
    expectError(await get('/news?limit=5'), 400, 'invalid_argument');
    expectError(await get('/nothing-here'), 404, 'not_found');
    expectError(await get('/api'), 404, 'not_found');
    expectError(await get('/robots.txt'), 404, 'not_found');
    expectError(await get('/%ZZ'), 400, 'invalid_argument');
    expectError(await get(`/${'x'.repeat(300)}`), 414, 'uri_too_long');
    expect((await get('/NEWS?format=ATOM')).status).toBe(404);
    expect((await get('/news?format=ATOM')).headers['content-type']).toMatch(/^application\/atom\+xml/);
    expect((await get('/news?format=')).headers['content-type']).toMatch(/^application\/rss\+xml/);
    expectError(await get(`/api/feeds/${'x'.repeat(300)}/status`), 414, 'uri_too_long');
    expectError(await get('/api/feeds/%ZZ/status'), 400, 'invalid_argument');
    expectError(await get('/api/channels?limit=1'), 400, 'invalid_argument');
    expectError(await call(server.url, 'DELETE', '/api/channels/%ZZ'), 400, 'invalid_argument');
    expectError(await call(server.url, 'POST', '/api/channels/x/items?x=1', {json: {title: 't'}}), 400, 'invalid_argument');
    expectError(await call(server.url, 'PUT', '/news'), 404, 'not_found');
  });

  it('the refresh webhook: 401 without a bearer token, 403 with a wrong one, 404 for an unknown feed', async () => {
    expectError(await refresh('news', {}), 401, 'unauthorized');
    expectError(await refresh('news', {authorization: `Basic ${Buffer.from(`x:${SECRET}`).toString('base64')}`}), 401, 'unauthorized');
    expectError(await refresh('news', {authorization: 'Bearer'}), 401, 'unauthorized');
    expectError(await refresh('news', {authorization: 'Bearer wrong'}), 403, 'forbidden');
    expectError(await refresh('news', {authorization: `Bearer ${SECRET}x`}), 403, 'forbidden');
    expectError(await refresh('news', {authorization: `Bearer ${SECRET.slice(0, -1)}`}), 403, 'forbidden');
    expectError(await refresh('unknown'), 404, 'not_found');
    // The token is checked before the name: no caller learns which feeds exist.
    expectError(await refresh('unknown', {}), 401, 'unauthorized');
    expectError(await call(server.url, 'POST', '/api/feeds/news/refresh', {headers: {authorization: `Bearer ${SECRET}`}, json: {force: true}}), 400, 'invalid_body');
  });

  it('the refresh webhook answers 404 when no REFRESH_TOKEN is configured, whatever the token', async () => {
    const without = await start({refreshToken: ''});
    try {
      expectError(await refresh('news', {authorization: `Bearer ${SECRET}`}, without.url), 404, 'not_found');
      expectError(await refresh('news', {}, without.url), 404, 'not_found');
    } finally {
      await without.close();
    }
  });

  it('GET /api/feeds and /api/feeds/<name>/status read the store and never contact the origin', async () => {
    const hits = origin.hits;
    const list = await get('/api/feeds');
    expect(list.status).toBe(200);
    expect(list.json.map((feed: {name: string}) => feed.name)).toEqual(['news', 'titled']);
    const status = await get('/api/feeds/news/status');
    expect(status.status).toBe(200);
    expect(status.json).toMatchObject({
      name: 'news',
      origin: `${origin.url}/feed.xml`,
      pollIntervalSeconds: 900,
      itemCount: 5,
      stale: false,
      lastError: null,
      feedUrl: `${server.url}/news`,
    });
    expect(Date.parse(status.json.lastSuccessAt)).not.toBeNaN();
    expectError(await get('/api/feeds/unknown/status'), 404, 'not_found');
    expectError(await get('/api/feeds?all=1'), 400, 'invalid_argument');
    expect(origin.hits).toBe(hits);
  });

  describe.each([
    ['down (503)', 'down'],
    ['garbage', 'garbage'],
    ['a web page, not a feed', 'html'],
    ['slow (past the deadline)', 'slow'],
  ] as const)('an origin that is %s', (_label, mode) => {
    it('answers 502 to the webhook; the last good copy is served with X-Feed-Stale: true until a good poll', async () => {
      const good = await get('/news');
      origin.mode = mode;
      try {
        expectError(await refresh('news'), 502, 'feed_unreachable');
        const stale = await get('/news');
        expect(stale.status).toBe(200);
        expect(stale.headers['x-feed-stale']).toBe('true');
        // The error never becomes content: the same items, the same ETag.
        expect(stale.body.equals(good.body)).toBe(true);
        expect(stale.headers.etag).toBe(good.headers.etag);
        const atom = await get('/news?format=atom');
        expect(atom.headers['x-feed-stale']).toBe('true');
        expect(parseFeed(atom.body).items).toHaveLength(5);
        const status = (await get('/api/feeds/news/status')).json;
        expect(status.stale).toBe(true);
        expect(status.lastError).toEqual(expect.any(String));
        expect(Date.parse(status.lastFailureAt)).not.toBeNaN();
      } finally {
        origin.mode = 'ok';
      }
      expect((await refresh('news')).status).toBe(200);
      const fresh = await get('/news');
      expect(fresh.headers['x-feed-stale']).toBeUndefined();
      expect((await get('/api/feeds/news/status')).json.stale).toBe(false);
    });
  });

  it('concurrent refreshes of one feed share one origin fetch', async () => {
    origin.version = 3;
    const hits = origin.hits;
    let arrived = 0;
    const count = (request: http.IncomingMessage) => void (request.url === '/api/feeds/news/refresh' && arrived++);
    server.app.server.on('request', count);
    origin.mode = 'hold';
    try {
      const answers = Promise.all(Array.from({length: 5}, () => refresh('news')));
      // All five are in the gateway, past its hooks (no I/O between), while the origin holds the first fetch.
      await vi.waitFor(() => expect({arrived, hits: origin.hits - hits}).toEqual({arrived: 5, hits: 1}), {timeout: 10_000});
      for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
      origin.release();
      expect((await answers).map((answer) => answer.json)).toEqual(Array.from({length: 5}, () => ({id: 'news', status: 'ok'})));
      expect(origin.hits - hits).toBe(1);
    } finally {
      origin.mode = 'ok';
      origin.release();
      server.app.server.off('request', count);
    }
  });

  it('a gateway restarted while the origin is down serves the stored copy, marked stale', async () => {
    const before = await get('/news');
    const own = await start({background: true});
    origin.mode = 'down';
    try {
      expect((await refresh('news', undefined, own.url)).status).toBe(502);
      await own.close();
      const again = await start({background: true});
      try {
        const served = await call(again.url, 'GET', '/news');
        expect(served.status).toBe(200);
        expect(served.headers['x-feed-stale']).toBe('true');
        expect(served.headers.etag).toBe(before.headers.etag);
        expect(parseFeed(served.body).items.map((item) => item.title)).toEqual(parseFeed(before.body).items.map((item) => item.title));
      } finally {
        await again.close();
      }
    } finally {
      origin.mode = 'ok';
      await own.close();
    }
  });

  it('counts its origin polls on /metrics by result: ok, not_modified, failure', async () => {
    const fetches = async () => {
      const family = parseText((await get('/metrics')).body.toString('utf8')).find((entry) => entry.name === 'workbench_feed_fetches_total')!;
      return Object.fromEntries(family.samples.map((sample) => [sample.labels.result!, sample.value]));
    };
    const before = await fetches();
    expect((await refresh('news')).json.status).toBe('not-modified');
    const after = await fetches();
    expect(after).toEqual({...before, not_modified: before.not_modified! + 1});
    origin.mode = 'down';
    try {
      await refresh('news');
    } finally {
      origin.mode = 'ok';
    }
    expect((await fetches()).failure).toBe(after.failure! + 1);
  });
});

describe('channels', () => {
  const create = (body: unknown, headers?: Record<string, string>) => call(server.url, 'POST', '/api/channels', {json: body, headers});
  const post = (id: string, token: string | undefined, item: unknown) =>
    call(server.url, 'POST', `/api/channels/${id}/items`, {json: item, headers: token === undefined ? {} : {authorization: `Bearer ${token}`}});
  const remove = (id: string, token: string | undefined) =>
    call(server.url, 'DELETE', `/api/channels/${id}`, {headers: token === undefined ? {} : {authorization: `Bearer ${token}`}});

  it('POST /api/channels answers 201 {id, write_token, feed_url, expires_at} (168 h by default)', async () => {
    const before = Date.now() + skew;
    const answer = await create({title: 'Deploys', description: 'what shipped'});
    expect(answer.status).toBe(201);
    expect(Object.keys(answer.json).sort()).toEqual(['expires_at', 'feed_url', 'id', 'write_token']);
    expect(answer.json.feed_url).toBe(`${server.url}/${answer.json.id}`);
    expect(Buffer.from(answer.json.write_token, 'base64url').length).toBeGreaterThanOrEqual(16);
    const ttl = Date.parse(answer.json.expires_at) - before;
    expect(Math.abs(ttl - 168 * HOUR)).toBeLessThan(60_000);
  });

  it.each([
    [0, 1],
    [-5, 1],
    [10_000, 720],
    [1, 1],
    [720, 720],
    [24, 24],
  ])('ttl_hours %s is clamped to %s hours', async (given, hours) => {
    const before = Date.now() + skew;
    const answer = await create({title: 'ttl', ttl_hours: given});
    expect(answer.status).toBe(201);
    expect(Math.abs(Date.parse(answer.json.expires_at) - before - hours * HOUR)).toBeLessThan(60_000);
  });

  it.each([
    ['ttl_hours "abc"', {title: 't', ttl_hours: 'abc'}],
    ['ttl_hours 1.5', {title: 't', ttl_hours: 1.5}],
    ['ttl_hours null', {title: 't', ttl_hours: null}],
    ['no title', {description: 'd'}],
    ['a title that is a number', {title: 5}],
    ['an empty title', {title: ''}],
    ['a blank title', {title: '   '}],
    ['an unknown field', {title: 't', owner: 'me'}],
    ['an array', [{title: 't'}]],
  ])('POST /api/channels with %s is 400 invalid_body', async (_label, body) => {
    expectError(await create(body), 400, 'invalid_body');
  });

  it('malformed JSON, a missing body and another content type are refused as bad bodies', async () => {
    expectError(await call(server.url, 'POST', '/api/channels', {headers: {'content-type': 'application/json'}, body: '{"title": "t",'}), 400, 'invalid_body');
    expectError(await call(server.url, 'POST', '/api/channels', {headers: {'content-type': 'application/json'}, body: ''}), 400, 'invalid_body');
    expectError(await call(server.url, 'POST', '/api/channels', {headers: {'content-type': 'text/plain'}, body: 'title=t'}), 415, 'invalid_body');
  });

  it('items: 201 {ok:true}; 401 without a token, 403 with a wrong one, 404 unknown, 400 invalid body', async () => {
    const channel = (await create({title: 'Items'})).json;
    const posted = await post(channel.id, channel.write_token, {title: 'First', link: 'https://example.org/1', description: 'hello'});
    expect(posted.status).toBe(201);
    expect(posted.json).toEqual({ok: true});
    expectError(await post(channel.id, undefined, {title: 'x'}), 401, 'unauthorized');
    expectError(await post(channel.id, 'wrong-token', {title: 'x'}), 403, 'forbidden');
    expectError(await post('no-such-channel', channel.write_token, {title: 'x'}), 404, 'not_found');
    expectError(await post(channel.id, channel.write_token, {link: 'https://example.org'}), 400, 'invalid_body');
    expectError(await post(channel.id, channel.write_token, {title: 'x', extra: 1}), 400, 'invalid_body');
    expectError(await post(channel.id, channel.write_token, {title: ['x']}), 400, 'invalid_body');
    expectError(
      await call(server.url, 'POST', `/api/channels/${channel.id}/items`, {
        headers: {authorization: `Bearer ${channel.write_token}`, 'content-type': 'application/json'},
        body: '{oops',
      }),
      400,
      'invalid_body',
    );
  });

  it('an item of exactly 64 KB is taken; one byte more is 413', async () => {
    const channel = (await create({title: 'Sizes'})).json;
    const sized = (bytes: number) => {
      const empty = JSON.stringify({title: 'big', description: ''});
      return JSON.stringify({title: 'big', description: 'x'.repeat(bytes - empty.length)});
    };
    expect(Buffer.byteLength(sized(CHANNEL_ITEM_MAX_BYTES))).toBe(64 * 1024);
    const headers = {authorization: `Bearer ${channel.write_token}`, 'content-type': 'application/json'};
    const exact = await call(server.url, 'POST', `/api/channels/${channel.id}/items`, {headers, body: sized(CHANNEL_ITEM_MAX_BYTES)});
    expect(exact.status).toBe(201);
    const over = await call(server.url, 'POST', `/api/channels/${channel.id}/items`, {headers, body: sized(CHANNEL_ITEM_MAX_BYTES + 1)});
    expectError(over, 413, 'payload_too_large');
    expect(over.json.error.message).toContain('64 KB');
    const feed = parseFeed((await get(`/${channel.id}`)).body);
    expect(feed.items).toHaveLength(1);
  });

  it('GET /<channel-id> serves the channel with the same negotiation and max-age=60; every representation parses back', async () => {
    const channel = (await create({title: 'Releases', description: 'tagged builds'})).json;
    for (const n of [1, 2, 3]) expect((await post(channel.id, channel.write_token, {title: `Release ${n}`, link: `https://example.org/r/${n}`})).status).toBe(201);
    const rss = await get(`/${channel.id}`);
    expect(rss.status).toBe(200);
    expect(rss.headers['cache-control']).toBe('public, max-age=60');
    expect(rss.headers.link).toBe(`<${server.url}/api/websub>; rel="hub", <${server.url}/${channel.id}>; rel="self"`);
    const parsed = parseFeed(rss.body, rss.headers['content-type']);
    expect(parsed.version).toBe('RSS 2.0');
    expect(parsed.title).toBe('Releases');
    expect(parsed.items.map((item) => item.title)).toEqual(['Release 3', 'Release 2', 'Release 1']);
    const atom = await get(`/${channel.id}?format=atom`);
    const parsedAtom = parseFeed(atom.body, atom.headers['content-type']);
    expect(parsedAtom.version).toBe('Atom 1.0');
    expect(parsedAtom.items.map((item) => [item.title, item.link])).toEqual([3, 2, 1].map((n) => [`Release ${n}`, `https://example.org/r/${n}`]));
    const page = await get(`/${channel.id}`, {accept: 'text/html', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0'});
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('Release 3');
    expect((await get(`/${channel.id}`, {'if-none-match': rss.headers.etag!})).status).toBe(304);
    // A post changes the feed at once (no stale copy from memory).
    expect((await post(channel.id, channel.write_token, {title: 'Release 4'})).status).toBe(201);
    const after = await get(`/${channel.id}`);
    expect(after.headers.etag).not.toBe(rss.headers.etag);
    expect(parseFeed(after.body).items[0]!.title).toBe('Release 4');
  });

  it('100 concurrent posts to one channel: none lost, served newest first', async () => {
    const channel = (await create({title: 'Busy'})).json;
    const answers = await Promise.all(Array.from({length: 100}, (_, n) => post(channel.id, channel.write_token, {title: `Post ${n}`})));
    expect(answers.every((answer) => answer.status === 201)).toBe(true);
    const feed = parseFeed((await get(`/${channel.id}`)).body);
    expect(feed.items.map((item) => item.title).sort()).toEqual(Array.from({length: 100}, (_, n) => `Post ${n}`).sort());
    const times = feed.items.map((item) => Date.parse(item.published!));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('DELETE: 401 without a token, 403 with a wrong one, then 204 and the feed is gone', async () => {
    const channel = (await create({title: 'Short-lived'})).json;
    expect((await get(`/${channel.id}`)).status).toBe(200);
    expectError(await remove(channel.id, undefined), 401, 'unauthorized');
    expectError(await remove(channel.id, 'nope'), 403, 'forbidden');
    const removed = await remove(channel.id, channel.write_token);
    expect(removed.status).toBe(204);
    expect(removed.body.length).toBe(0);
    expectError(await get(`/${channel.id}`), 404, 'not_found');
    expectError(await remove(channel.id, channel.write_token), 404, 'not_found');
    expectError(await post(channel.id, channel.write_token, {title: 'late'}), 404, 'not_found');
    expectError(
      await call(server.url, 'DELETE', `/api/channels/${channel.id}`, {headers: {authorization: `Bearer ${channel.write_token}`}, json: {why: 'done'}}),
      400,
      'invalid_body',
    );
  });

  it('GET /api/channels lists live channels without their tokens', async () => {
    const channel = (await create({title: 'Listed'})).json;
    const list = await get('/api/channels');
    expect(list.status).toBe(200);
    const entry = list.json.find((summary: {id: string}) => summary.id === channel.id);
    expect(entry).toMatchObject({id: channel.id, title: 'Listed', feedUrl: `${server.url}/${channel.id}`, itemCount: 0});
    expect(list.text).not.toContain(channel.write_token);
    expect(list.text).not.toContain('token');
  });

  it('an expired channel answers 404 to reads and writes', async () => {
    const channel = (await create({title: 'One hour', ttl_hours: 1})).json;
    expect((await post(channel.id, channel.write_token, {title: 'in time'})).status).toBe(201);
    expect((await get(`/${channel.id}`)).status).toBe(200);
    skew += 2 * HOUR;
    try {
      expectError(await get(`/${channel.id}`), 404, 'not_found');
      expectError(await post(channel.id, channel.write_token, {title: 'too late'}), 404, 'not_found');
      expect((await get('/api/channels')).json.some((summary: {id: string}) => summary.id === channel.id)).toBe(false);
    } finally {
      skew -= 2 * HOUR;
    }
  });
});

describe('the guard', () => {
  it('writes keep the Host and Origin checks; the public feed GET skips the Host check', async () => {
    const json = {title: 'from a page'};
    expectError(await call(server.url, 'POST', '/api/channels', {json, headers: {host: 'evil.example'}}), 403, 'host_not_allowed');
    expectError(await call(server.url, 'POST', '/api/channels', {json, headers: {origin: 'https://evil.example'}}), 403, 'cross_site_refused');
    expectError(await call(server.url, 'POST', '/api/channels', {json, headers: {'sec-fetch-site': 'cross-site'}}), 403, 'cross_site_refused');
    expectError(await refresh('news', {authorization: `Bearer ${SECRET}`, origin: 'https://evil.example'}), 403, 'cross_site_refused');
    expectError(await call(server.url, 'GET', '/api/feeds', {headers: {host: 'evil.example'}}), 403, 'host_not_allowed');
    const feed = await call(server.url, 'GET', '/news', {headers: {host: 'feeds.example.org'}});
    expect(feed.status).toBe(200);
    expect(feed.headers['content-type']).toMatch(/^application\/rss\+xml/);
    expect((await call(server.url, 'POST', '/api/channels', {json, headers: {origin: server.url}})).status).toBe(201);
  });

  it('the WebSub hub is routed: a malformed subscription is 400, /health answers', async () => {
    const hub = await call(server.url, 'POST', '/api/websub', {headers: {'content-type': 'application/x-www-form-urlencoded'}, body: 'hub.mode=subscribe'});
    expect(hub.status).toBe(400);
    expect(hub.json.error.code).toMatch(/^invalid_/);
    const health = await get('/health');
    expect(health.json).toEqual({ok: true});
  });
});

describe('the request log', () => {
  it('has a line for each request fastify answers and, counted, the cached feeds the front answered', async () => {
    const logFile = join(dir, 'counted.log');
    const own = await startGatewayServer({port: 0, db: join(dir, 'gateway.sqlite'), config, refreshToken: SECRET, background: false, fetch: quickFetch, logFile});
    try {
      const etag = (await call(own.url, 'GET', '/news')).headers.etag!;
      for (let i = 0; i < 3; i++) expect((await call(own.url, 'GET', '/news')).status).toBe(200);
      expect((await call(own.url, 'GET', '/news', {headers: {'if-none-match': etag}})).status).toBe(304);
      expect((await call(own.url, 'HEAD', '/news')).status).toBe(200);
      expect((await call(own.url, 'GET', '/nothing')).status).toBe(404);
    } finally {
      await own.close();
    }
    const lines = readFileSync(logFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as {msg: string; status: number; count?: number});
    const counted = lines.filter((line) => line.count !== undefined).map(({msg, status, count}) => ({msg, status, count}));
    expect(counted).toEqual(
      expect.arrayContaining([
        {msg: 'GET /news', status: 304, count: 1},
        {msg: 'HEAD /news', status: 200, count: 1},
      ]),
    );
    const gets = lines.filter((line) => line.msg === 'GET /news' && line.status === 200).reduce((sum, line) => sum + (line.count ?? 1), 0);
    expect(gets).toBe(4);
    expect(lines.some((line) => line.msg === 'GET /nothing' && line.status === 404 && line.count === undefined)).toBe(true);
  });
});

describe('workbench serve gateway', () => {
  let sandbox: Sandbox;
  beforeAll(() => {
    sandbox = makeSandbox('wb-serve-gateway-');
  });
  afterAll(async () => {
    await sandbox?.cleanup();
  });

  it.each([['abc'], ['70000'], ['-1']])('--port %s exits 1 with one line on stderr', async (port) => {
    const result = await runCli(['serve', 'gateway', '--port', port], {env: sandbox.env});
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('--port');
    expect(result.stdout).toBe('');
  });

  it('a bad --public-url or --host exits 1 with one line', async () => {
    for (const args of [
      ['--public-url', 'not a url'],
      ['--host', 'a b'],
      ['--config', ''],
      ['--db', ' '],
      ['--config', 'does-not-exist.kdl'],
    ]) {
      const result = await runCli(['serve', 'gateway', '--port', '0', ...args], {env: sandbox.env});
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('serves, announces itself as `gateway` and answers health until stopped', async () => {
    const {spawn} = await import('node:child_process');
    const {cliPath} = await import('../../helpers/cli.js');
    const child = spawn(process.execPath, [cliPath, 'serve', 'gateway', '--port', '0'], {env: sandbox.env, cwd: sandbox.dir, stdio: ['ignore', 'pipe', 'pipe']});
    try {
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      await vi.waitFor(() => expect(stdout).toMatch(/gateway listening on http:\/\/127\.0\.0\.1:\d+/), {timeout: 10_000});
      const url = /listening on (\S+)/.exec(stdout)![1]!;
      const {readFileSync} = await import('node:fs');
      const entry = JSON.parse(readFileSync(join(sandbox.home, 'services', 'gateway.json'), 'utf8'));
      expect(entry).toMatchObject({name: 'gateway', url, health: `${url}/health`});
      expect((await call(url, 'GET', '/health')).json).toEqual({ok: true});
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('close', resolve));
    }
  });
});
