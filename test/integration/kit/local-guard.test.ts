// A local server is safe from the browser: pages cannot reach it through DNS rebinding (a forged
// Host) nor write to it cross-site (Origin / Sec-Fetch-Site), while programs that send no Origin
// and the public list RSS still work. The reader on a real socket on 127.0.0.1, its routes taken
// from the app as registered, so a new route cannot miss the check.
import {mkdtempSync, rmSync} from 'node:fs';
import {request} from 'node:http';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import type {RouteOptions} from 'fastify';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {buildReaderApp} from '../../../servers/reader/index.js';
import {listen} from '../../../servers/kit/index.js';
import {createReaderService, type LocalReaderService} from '../../../source/feeds/service/index.js';

let dir: string;
let service: LocalReaderService;
let app: ReturnType<typeof buildReaderApp>;
let url: string;
let port: number;
const routes: {method: string; url: string; public: boolean}[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-guard-'));
  service = await createReaderService({connection: join(dir, 'reader.sqlite'), baseUrl: () => url});
  app = buildReaderApp({service, publicUrl: () => 'https://reader.example.org'});
  app.addHook('onRoute', (route: RouteOptions) => {
    for (const method of [route.method].flat()) routes.push({method, url: route.url, public: (route.config as {public?: boolean} | undefined)?.public === true});
  });
  url = await listen(app, '127.0.0.1', 0);
  port = Number(new URL(url).port);
});
afterAll(async () => {
  await app?.close();
  await service?.close();
  rmSync(dir, {recursive: true, force: true});
});

interface Answer {
  status: number;
  // JSON answers are read field by field in the assertions.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

/** node:http, since fetch may not set Host and always sends its own Sec-Fetch headers in browsers only. */
function call(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: {host: `127.0.0.1:${port}`, ...(body === undefined ? {} : {'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body))}), ...headers},
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk) => (text += chunk));
        response.on('end', () => {
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          resolve({status: response.statusCode ?? 0, body: parsed, text});
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const fill = (path: string) => path.replace(/:token/, 'abc').replace(/:\w+/g, '1');

describe('DNS rebinding: the Host must name this server', () => {
  it('a forged Host is 403 host_not_allowed, on reads too', async () => {
    for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1.evil.example:${port}`, `evil.example@127.0.0.1:${port}`, `[::1]:${port}`]) {
      const answer = await call('GET', '/api/v1/feeds', {host});
      expect(answer.status, `${host} ${answer.text}`).toBe(403);
      expect(answer.body).toEqual({error: {code: 'host_not_allowed', message: expect.stringContaining(`use http://127.0.0.1:${port}`)}});
    }
  });

  it('the right name on another port is refused too', async () => {
    expect((await call('GET', '/api/v1/feeds', {host: `127.0.0.1:${port + 1}`})).status).toBe(403);
    expect((await call('GET', '/api/v1/feeds', {host: 'localhost'})).status).toBe(403);
  });

  it('127.0.0.1, localhost (any case) with the port, and the public URL’s host are this server', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LocalHost:${port}`, 'reader.example.org:443']) {
      expect((await call('GET', '/api/v1/feeds', {host})).status, host).toBe(200);
    }
  });
});

describe('cross-site writes are refused', () => {
  it('the reader has routes that write, and every one of them refuses a cross-site Origin', async () => {
    const writes = routes.filter((route) => !['GET', 'HEAD', 'OPTIONS'].includes(route.method));
    expect(writes.length).toBeGreaterThanOrEqual(10);
    for (const route of writes) {
      for (const origin of ['http://evil.example', `http://localhost:${port + 1}`, 'null']) {
        const answer = await call(route.method, fill(route.url), {origin}, '{}');
        expect(answer.status, `${route.method} ${route.url} from ${origin}: ${answer.text}`).toBe(403);
        expect(answer.body).toEqual({error: {code: 'cross_site_refused', message: expect.stringContaining(origin)}});
      }
    }
  });

  it('Sec-Fetch-Site cross-site or same-site is refused on every write, with no Origin at all', async () => {
    for (const route of routes.filter((item) => !['GET', 'HEAD', 'OPTIONS'].includes(item.method))) {
      for (const site of ['cross-site', 'same-site']) {
        const answer = await call(route.method, fill(route.url), {'sec-fetch-site': site});
        expect(answer.status, `${route.method} ${route.url} ${site}`).toBe(403);
        expect(answer.body.error.code).toBe('cross_site_refused');
      }
    }
  });

  it('a page’s no-cors POST does not mark a feed read', async () => {
    const lists = (await call('GET', '/api/v1/lists')).body.length;
    const answer = await call(
      'POST',
      '/api/v1/lists',
      {origin: 'http://evil.example', 'sec-fetch-site': 'cross-site', 'content-type': 'text/plain'},
      '{"title": "x", "visibility": "public"}',
    );
    expect(answer.status).toBe(403);
    expect((await call('GET', '/api/v1/lists')).body.length).toBe(lists);
  });

  it('programs without Origin, the server’s own pages and the public URL’s pages still write', async () => {
    expect((await call('POST', '/api/v1/lists', {}, '{"title": "curl", "visibility": "private"}')).status).toBe(201);
    expect((await call('POST', '/api/v1/lists', {origin: `http://127.0.0.1:${port}`, 'sec-fetch-site': 'same-origin'}, '{"title": "own", "visibility": "private"}')).status).toBe(
      201,
    );
    expect((await call('POST', '/api/v1/lists', {origin: 'https://reader.example.org', 'sec-fetch-site': 'none'}, '{"title": "public url", "visibility": "private"}')).status).toBe(
      201,
    );
  });
});

describe('public routes', () => {
  it('only the shared list RSS is public', () => {
    expect(routes.filter((route) => route.public).map((route) => `${route.method} ${route.url}`)).toEqual(['GET /api/v1/lists/:token.xml', 'HEAD /api/v1/lists/:token.xml']);
  });

  it('the shared list RSS answers any Host, cross-site', async () => {
    const list = (await call('POST', '/api/v1/lists', {}, '{"title": "Shared", "visibility": "public"}')).body;
    const answer = await call('GET', `/api/v1/lists/${list.token}.xml`, {host: 'feeds.example.net', origin: 'http://evil.example', 'sec-fetch-site': 'cross-site'});
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('<title>Shared</title>');
  });
});
