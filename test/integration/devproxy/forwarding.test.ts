import {randomBytes} from 'node:crypto';
import http from 'node:http';
import type {AddressInfo} from 'node:net';
import {brotliCompressSync, gzipSync} from 'node:zlib';
import {afterEach, describe, expect, it, vi} from 'vitest';
import {WebSocket, WebSocketServer} from 'ws';
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

/** A target that answers every request with what it received. */
async function echoTarget(): Promise<TestTarget> {
  return startTarget((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.stringify({method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8')});
      res.writeHead(200, {'content-type': 'application/json'});
      res.end(body);
    });
  });
}

const httpEntries = (devProxy: DevProxy) => devProxy.log({types: ['http']}) as HttpTraffic[];

describe('forwarding', () => {
  it('forwards every method with its body, as the target host, with X-Forwarded-* and a traceparent it records', async () => {
    target = await echoTarget();
    proxy = await startTestProxy(target.url);
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      const body = method === 'GET' || method === 'OPTIONS' ? undefined : `{"m":"${method}"}`;
      const answer = await request(`${proxy.info.url}/api/items?x=1`, {method, body, headers: body ? {'content-type': 'application/json'} : {}});
      expect(answer.status).toBe(200);
      const seen = JSON.parse(answer.text) as {method: string; url: string; headers: Record<string, string>; body: string};
      expect(seen.method).toBe(method);
      expect(seen.url).toBe('/api/items?x=1');
      expect(seen.body).toBe(body ?? '');
      expect(seen.headers.host).toBe(`127.0.0.1:${target.port}`);
      expect(seen.headers['x-forwarded-host']).toBe(`127.0.0.1:${proxy.info.port}`);
      expect(seen.headers['x-forwarded-proto']).toBe('http');
      expect(seen.headers['x-forwarded-for']).toBe('127.0.0.1');
      expect(seen.headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      const entry = httpEntries(proxy).at(-1)!;
      expect(entry).toMatchObject({method, url: '/api/items?x=1', status: 200, contentType: 'application/json', traceId: seen.headers.traceparent.split('-')[1]});
      expect(entry.requestBody).toBe(body);
      expect(entry.body).toBe(answer.text);
      expect(entry.responseBytes).toBe(answer.body.length);
    }
    expect(proxy.info.requests).toBe(6);
  });

  it('answers the next request on a kept-alive connection after a body the browser read slower than the target sent it', async () => {
    // A bundle larger than the socket buffers pauses the target's connection while the browser
    // catches up; the connection must flow again when it goes back to the pool (a Vite page hung
    // on its second module before).
    const big = 'x'.repeat(4 * 1024 * 1024);
    target = await startTarget((req, res) => {
      const body = req.url === '/big.js' ? big : 'small';
      res.writeHead(200, {'content-type': 'text/javascript', 'content-length': Buffer.byteLength(body)});
      res.end(body);
    });
    proxy = await startTestProxy(target.url);
    for (let round = 0; round < 3; round++) {
      expect((await fetch(`${proxy.info.url}/big.js`, {signal: AbortSignal.timeout(20_000)}).then((answer) => answer.text())).length).toBe(big.length);
      expect(await fetch(`${proxy.info.url}/small.js`, {signal: AbortSignal.timeout(20_000)}).then((answer) => answer.text())).toBe('small');
    }
  });

  it('passes answers the target sends in many reads on byte for byte: a binary download and a page gathered for injection', async () => {
    // Each read from the target lands in a region of a slab that is never read into again
    // (upstream-pool.ts): parts still queued for the browser, or gathered into a page, stay what came.
    const binary = randomBytes(3 * 1024 * 1024);
    const page = `<!doctype html><html><head><title>t</title></head><body>${Array.from({length: 30_000}, (_, index) => `<p>${index}</p>`).join('')}</body></html>`;
    target = await startTarget((req, res) => {
      const body = req.url === '/page' ? Buffer.from(page) : binary;
      res.writeHead(200, {'content-type': req.url === '/page' ? 'text/html' : 'application/octet-stream', 'content-length': body.length});
      res.end(body);
    });
    proxy = await startTestProxy(target.url);
    for (let round = 0; round < 2; round++) {
      const download = await fetch(`${proxy.info.url}/download`, {signal: AbortSignal.timeout(20_000)});
      expect(Buffer.from(await download.arrayBuffer()).equals(binary)).toBe(true);
      const injected = await fetch(`${proxy.info.url}/page`, {signal: AbortSignal.timeout(20_000)}).then((answer) => answer.text());
      expect(injected).toContain(MARK_SCRIPT);
      expect(injected.replace(/<script\b[^>]*>[\s\S]*?<\/script>/, '')).toBe(page);
    }
  });

  it('keeps the trace id of a traceparent the browser sent, with a new parent span', async () => {
    target = await echoTarget();
    proxy = await startTestProxy(target.url);
    const incoming = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const answer = await request(`${proxy.info.url}/`, {headers: {traceparent: incoming}});
    const sent = (JSON.parse(answer.text) as {headers: Record<string, string>}).headers.traceparent;
    expect(sent).toMatch(/^00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-01$/);
    expect(sent).not.toBe(incoming);
    expect(httpEntries(proxy)[0]!.traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
  });

  it('streams a large upload intact and logs only its first 2 KB', async () => {
    target = await startTarget((req, res) => {
      let bytes = 0;
      req.on('data', (chunk: Buffer) => (bytes += chunk.length));
      req.on('end', () => res.end(String(bytes)));
    });
    proxy = await startTestProxy(target.url);
    const upload = Buffer.alloc(3 * 1024 * 1024, 'a');
    const answer = await request(`${proxy.info.url}/upload`, {method: 'POST', body: upload, headers: {'content-type': 'text/plain'}});
    expect(answer.text).toBe(String(upload.length));
    const entry = httpEntries(proxy)[0]!;
    expect(entry.requestBytes).toBe(upload.length);
    expect(entry.requestBody).toHaveLength(2048);
  });

  it('passes a chunked answer on chunked, whole', async () => {
    target = await startTarget((_req, res) => {
      res.writeHead(200, {'content-type': 'text/plain'});
      res.write('one,');
      res.write('two,');
      res.end('three');
    });
    proxy = await startTestProxy(target.url);
    const answer = await request(`${proxy.info.url}/chunks`);
    expect(answer.headers['transfer-encoding']).toBe('chunked');
    expect(answer.headers['content-length']).toBeUndefined();
    expect(answer.text).toBe('one,two,three');
  });

  it('passes compressed non-HTML through as sent, and logs the decoded start of an error body', async () => {
    const json = JSON.stringify({message: 'database is down', detail: 'x'.repeat(5000)});
    target = await startTarget((req, res) => {
      const brotli = req.url === '/br';
      const body = brotli ? brotliCompressSync(json) : gzipSync(json);
      res.writeHead(500, {'content-type': 'application/json', 'content-encoding': brotli ? 'br' : 'gzip', 'content-length': body.length});
      res.end(body);
    });
    proxy = await startTestProxy(target.url);
    for (const path of ['/gzip', '/br']) {
      const answer = await request(`${proxy.info.url}${path}`, {headers: {'accept-encoding': 'gzip, br, zstd'}});
      expect(answer.status).toBe(500);
      expect(answer.headers['content-encoding']).toBe(path.slice(1));
      expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
      const entry = httpEntries(proxy).at(-1)!;
      expect(entry.body).toBe(json.slice(0, 2048));
    }
  });

  it('offers the target only encodings it can undo', async () => {
    target = await echoTarget();
    proxy = await startTestProxy(target.url);
    const answer = await request(`${proxy.info.url}/`, {headers: {'accept-encoding': 'gzip, deflate, br, zstd'}});
    expect((JSON.parse(answer.text) as {headers: Record<string, string>}).headers['accept-encoding']).toBe('gzip, deflate, br');
  });

  it('rewrites redirects to the target to the proxy and leaves others alone', async () => {
    target = await startTarget((req, res) => {
      const locations: Record<string, string> = {
        '/absolute': `http://127.0.0.1:${target!.port}/next?a=1`,
        '/localhost': `http://localhost:${target!.port}/next`,
        '/relative': '/next',
        '/elsewhere': 'https://example.com/login',
      };
      res.writeHead(302, {location: locations[req.url ?? ''] ?? '/'});
      res.end();
    });
    proxy = await startTestProxy(target.url);
    const location = async (path: string) => (await request(`${proxy!.info.url}${path}`)).headers.location;
    expect(await location('/absolute')).toBe(`${proxy.info.url}/next?a=1`);
    expect(await location('/localhost')).toBe(`${proxy.info.url}/next`);
    expect(await location('/relative')).toBe('/next');
    expect(await location('/elsewhere')).toBe('https://example.com/login');
  });

  it("drops a cookie's Domain when it names the target, and keeps every cookie", async () => {
    target = await startTarget((_req, res) => {
      res.setHeader('set-cookie', ['sid=1; Domain=127.0.0.1; Path=/; HttpOnly', 'theme=dark; Path=/', 'other=2; Domain=.example.com']);
      res.end('ok');
    });
    proxy = await startTestProxy(target.url);
    const answer = await request(`${proxy.info.url}/`);
    expect(answer.headers['set-cookie']).toEqual(['sid=1; Path=/; HttpOnly', 'theme=dark; Path=/', 'other=2; Domain=.example.com']);
  });

  it('delivers each server-sent event as it is sent, before the stream ends', async () => {
    let endStream: (() => void) | undefined;
    target = await startTarget((_req, res) => {
      res.writeHead(200, {'content-type': 'text/event-stream', 'cache-control': 'no-cache'});
      res.write('data: first\n\n');
      endStream = () => res.end('data: last\n\n');
    });
    proxy = await startTestProxy(target.url);
    const received: string[] = [];
    const ended = new Promise<void>((resolve, reject) => {
      http
        .get(`${proxy!.info.url}/events`, {agent: false}, (res) => {
          res.setEncoding('utf8');
          res.on('data', (text: string) => {
            received.push(text);
            // The stream is still open: the first event came through alone.
            if (received.length === 1) {
              expect(text).toBe('data: first\n\n');
              endStream!();
            }
          });
          res.on('end', resolve);
        })
        .on('error', reject);
    });
    await ended;
    expect(received.join('')).toBe('data: first\n\ndata: last\n\n');
  });

  it('pipes a WebSocket upgrade to the target (echo), as the target host', async () => {
    target = await startTarget((_req, res) => res.end('not a socket'));
    const sockets = new WebSocketServer({server: target.server});
    const hosts: string[] = [];
    sockets.on('connection', (socket, req) => {
      hosts.push(req.headers.host ?? '');
      socket.on('message', (data) => socket.send(`echo:${data.toString()}`));
    });
    proxy = await startTestProxy(target.url);
    const client = new WebSocket(`ws://127.0.0.1:${proxy.info.port}/hmr?token=1`, 'vite-hmr');
    const reply = await new Promise<string>((resolve, reject) => {
      client.on('open', () => client.send('hello'));
      client.on('message', (data) => resolve(data.toString()));
      client.on('error', reject);
    });
    expect(reply).toBe('echo:hello');
    expect(client.protocol).toBe('vite-hmr');
    expect(hosts).toEqual([`127.0.0.1:${target.port}`]);
    client.close();
    sockets.close();
    expect(httpEntries(proxy).find((entry) => entry.url === '/hmr?token=1')?.status).toBe(101);
  });
});

describe('the proxy is a local server', () => {
  it('refuses a Host that is not its own (DNS rebinding) without forwarding', async () => {
    let hits = 0;
    target = await startTarget((_req, res) => {
      hits++;
      res.end('secret');
    });
    proxy = await startTestProxy(target.url);
    const answer = await request(`${proxy.info.url}/`, {headers: {host: `evil.example:${proxy.info.port}`}});
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.text)).toMatchObject({error: {code: 'host_not_allowed'}});
    expect((await request(`http://localhost:${proxy.info.port}/`)).text).toBe('secret');
    expect(hits).toBe(1);
  });

  it('answers its reserved paths itself and never forwards them', async () => {
    let hits = 0;
    target = await startTarget((_req, res) => {
      hits++;
      res.end();
    });
    proxy = await startTestProxy(target.url);
    const reserved = await request(`${proxy.info.url}/__workbench/anything`);
    expect(reserved.status).toBe(404);
    expect(JSON.parse(reserved.text)).toMatchObject({error: {code: 'not_found'}});
    expect((await request(`${proxy.info.url}/__workbench/ws`)).status).toBe(426);
    expect(hits).toBe(0);
  });

  it('answers malformed HTTP with 400 and stays up', async () => {
    target = await startTarget((_req, res) => res.end('fine'));
    proxy = await startTestProxy(target.url);
    const {Socket} = await import('node:net');
    const raw = await new Promise<string>((resolve) => {
      const socket = new Socket();
      let text = '';
      socket.connect(proxy!.info.port, '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      socket.on('data', (data) => (text += data.toString()));
      socket.on('close', () => resolve(text));
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400/);
    expect((await request(`${proxy.info.url}/`)).text).toBe('fine');
  });
});

describe('options and ports', () => {
  it('names a taken port, or takes the next free one when asked', async () => {
    const blocker = http.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as AddressInfo).port;
    try {
      await expect(startTestProxy('http://127.0.0.1:9', {port: taken})).rejects.toMatchObject({code: 'conflict', message: expect.stringContaining(`port ${taken}`)});
      proxy = await startTestProxy('http://127.0.0.1:9', {port: taken, nextFree: true});
      expect(proxy.info.port).toBeGreaterThan(taken);
      expect(proxy.info.url).toBe(`http://127.0.0.1:${proxy.info.port}`);
    } finally {
      blocker.close();
    }
  });

  it('refuses garbage options with invalid_argument', async () => {
    const garbage: Array<Record<string, unknown>> = [
      {id: '', target: 'http://127.0.0.1:3000'},
      {id: 'a b', target: 'http://127.0.0.1:3000'},
      {id: 'x'.repeat(65), target: 'http://127.0.0.1:3000'},
      {id: 'ok', target: 'not a url'},
      {id: 'ok', target: 'ftp://127.0.0.1/'},
      {id: 'ok', target: 'http://user:pw@127.0.0.1:3000'},
      {id: 'ok', target: 42},
      {id: 'ok', target: 'http://127.0.0.1:3000', port: -1},
      {id: 'ok', target: 'http://127.0.0.1:3000', port: 70000},
      {id: 'ok', target: 'http://127.0.0.1:3000', port: 1.5},
      {id: 'ok', target: 'http://127.0.0.1:3000', logSize: 0},
      {id: 'ok', target: 'http://127.0.0.1:3000', logSize: 100_001},
      {id: 'ok', target: 'http://127.0.0.1:3000', host: 'a b'},
      {id: 'ok', target: 'http://127.0.0.1:3000', targetTimeoutMs: 0},
    ];
    for (const options of garbage) {
      await expect(startTestProxy('', options as never), JSON.stringify(options)).rejects.toMatchObject({code: 'invalid_argument'});
    }
  });

  it('stops cleanly with connections open, and frees its port', async () => {
    target = await startTarget((_req, res) => res.write('never ends'));
    proxy = await startTestProxy(target.url);
    const port = proxy.info.port;
    const open = new Promise<void>((resolve) => {
      http.get(`${proxy!.info.url}/`, {agent: false}, (res) => res.once('data', () => resolve())).on('error', () => {});
    });
    await open;
    await proxy.stop();
    proxy = await startTestProxy(target.url, {port});
    await vi.waitFor(() => expect(proxy!.info.port).toBe(port), {timeout: 15_000});
  });
});
