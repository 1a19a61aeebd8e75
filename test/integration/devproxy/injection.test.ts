import {brotliCompressSync, deflateSync, gzipSync} from 'node:zlib';
import {afterEach, describe, expect, it} from 'vitest';
import type {DevProxy, HttpTraffic} from '../../../source/devproxy/types.js';
import {MARK_SCRIPT, request, startTarget, startTestProxy, type TestTarget} from './harness.js';

let target: TestTarget | undefined;
let proxy: DevProxy | undefined;
afterEach(async () => {
  await proxy?.stop();
  await target?.close();
  proxy = undefined;
  target = undefined;
});

const PAGE = '<!doctype html><html><head><meta charset="utf-8"><title>App</title><script type="module" src="/src/main.js"></script></head><body><div id="app"></div></body></html>';

interface Served {
  body: string | Buffer;
  headers?: Record<string, string | string[]>;
  status?: number;
}

/** A target serving one page per path. */
async function pages(routes: Record<string, Served>): Promise<TestTarget> {
  return startTarget((req, res) => {
    const route = routes[req.url ?? ''];
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    const body = typeof route.body === 'string' ? Buffer.from(route.body) : route.body;
    res.writeHead(route.status ?? 200, {'content-type': 'text/html; charset=utf-8', 'content-length': String(body.length), ...route.headers});
    res.end(body);
  });
}

const ourTag = /<script nonce="([^"]+)" data-workbench-devtool>/g;

describe('injection into HTML', () => {
  it('inserts the script once, before the first script of <head>, with the length fixed and validators dropped', async () => {
    target = await pages({'/': {body: PAGE, headers: {etag: '"v1"', 'last-modified': 'Mon, 23 Nov 2026 10:00:00 GMT'}}});
    proxy = await startTestProxy(target.url);
    const answer = await request(`${proxy.info.url}/`);
    expect(answer.status).toBe(200);
    expect([...answer.text.matchAll(ourTag)]).toHaveLength(1);
    expect(answer.text).toMatch(
      /<title>App<\/title><script nonce="[^"]+" data-workbench-devtool>window\.__injected = \(window\.__injected \|\| 0\) \+ 1;<\/script><script type="module"/,
    );
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    expect(answer.headers.etag).toBeUndefined();
    expect(answer.headers['last-modified']).toBeUndefined();
    const entry = proxy.log({types: ['http']})[0] as HttpTraffic;
    expect(entry.injected).toBe(true);
    expect(entry.body).toBe(PAGE);
  });

  it('decodes gzip, brotli and deflate pages and sends them as identity with the right length', async () => {
    target = await pages({
      '/gzip': {body: gzipSync(PAGE), headers: {'content-encoding': 'gzip'}},
      '/br': {body: brotliCompressSync(PAGE), headers: {'content-encoding': 'br'}},
      '/deflate': {body: deflateSync(PAGE), headers: {'content-encoding': 'deflate'}},
    });
    proxy = await startTestProxy(target.url);
    for (const path of ['/gzip', '/br', '/deflate']) {
      const answer = await request(`${proxy.info.url}${path}`, {headers: {'accept-encoding': 'gzip, deflate, br'}});
      expect(answer.headers['content-encoding'], path).toBeUndefined();
      expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
      expect([...answer.text.matchAll(ourTag)]).toHaveLength(1);
      expect(answer.text.replace(/<script nonce="[^"]+" data-workbench-devtool>.*?<\/script>/, '')).toBe(PAGE);
    }
  });

  it('leaves text/html that is JSON, binary, or already injected byte for byte as it was', async () => {
    const binary = Buffer.from([0x3c, 0x00, 0xff, 0x10, 0x20]);
    const injected = PAGE.replace('<title>', '<script nonce="x" data-workbench-devtool></script><title>');
    target = await pages({'/json': {body: '{"html":"<p>hi</p>"}'}, '/binary': {body: binary}, '/again': {body: injected}});
    proxy = await startTestProxy(target.url);
    const json = await request(`${proxy.info.url}/json`);
    expect(json.text).toBe('{"html":"<p>hi</p>"}');
    expect(json.headers['content-length']).toBe(String(json.body.length));
    expect((await request(`${proxy.info.url}/binary`)).body.equals(binary)).toBe(true);
    expect((await request(`${proxy.info.url}/again`)).text).toBe(injected);
    expect((proxy.log({types: ['http']}) as HttpTraffic[]).some((entry) => entry.injected)).toBe(false);
  });

  it('injects into chunked pages, error pages too, but not into HEAD answers', async () => {
    target = await startTarget((req, res) => {
      res.writeHead(req.url === '/missing' ? 404 : 200, {'content-type': 'text/html'});
      if (req.method === 'HEAD') return res.end();
      res.write('<html><head>');
      res.end('</head><body>x</body></html>');
    });
    proxy = await startTestProxy(target.url);
    const chunked = await request(`${proxy.info.url}/`);
    expect(chunked.text).toMatch(/^<html><head><script nonce="[^"]+" data-workbench-devtool>.*<\/script><\/head><body>x<\/body><\/html>$/);
    expect(Number(chunked.headers['content-length'])).toBe(chunked.body.length);
    expect((await request(`${proxy.info.url}/missing`)).text).toContain('data-workbench-devtool');
    const head = await request(`${proxy.info.url}/`, {method: 'HEAD'});
    expect(head.body.length).toBe(0);
  });

  it('adds its nonce to a strict CSP header, and the same nonce is on the tag', async () => {
    const csp = "default-src 'self'; script-src 'nonce-pagenonce' 'strict-dynamic'; connect-src 'self'";
    target = await pages({'/': {body: PAGE, headers: {'content-security-policy': csp}}});
    proxy = await startTestProxy(target.url);
    const answer = await request(`${proxy.info.url}/`);
    const nonce = [...answer.text.matchAll(ourTag)][0]![1]!;
    expect(answer.headers['content-security-policy']).toBe(
      `default-src 'self'; script-src 'nonce-pagenonce' 'strict-dynamic' 'nonce-${nonce}'; connect-src 'self' ws://127.0.0.1:${proxy.info.port}`,
    );
    // A fresh nonce for every page.
    const again = await request(`${proxy.info.url}/`);
    expect([...again.text.matchAll(ourTag)][0]![1]).not.toBe(nonce);
  });

  it("keeps a policy that allows inline scripts by 'unsafe-inline' as it is", async () => {
    const csp = "script-src 'self' 'unsafe-inline'";
    target = await pages({'/': {body: PAGE, headers: {'content-security-policy': csp, 'content-security-policy-report-only': "script-src 'self'"}}});
    proxy = await startTestProxy(target.url);
    const answer = await request(`${proxy.info.url}/`);
    const nonce = [...answer.text.matchAll(ourTag)][0]![1]!;
    expect(answer.headers['content-security-policy']).toBe(csp);
    expect(answer.headers['content-security-policy-report-only']).toBe(`script-src 'self' 'nonce-${nonce}'`);
  });

  it('makes the page script safe to inline whatever it contains', async () => {
    target = await pages({'/': {body: PAGE}});
    proxy = await startTestProxy(target.url, {}, {pageScript: 'const s = "</script><!-- é";'});
    const answer = await request(`${proxy.info.url}/`);
    expect(answer.text).toContain('const s = "<\\/script><\\!-- \\u00e9";</script>');
    expect(MARK_SCRIPT).not.toContain('<');
  });
});
