import http from 'node:http';
import net, {type AddressInfo} from 'node:net';
import {afterEach, describe, expect, it, vi} from 'vitest';
import type {DevProxy, DiagnosticTraffic, HttpTraffic} from '../../../source/devproxy/types.js';
import {queryErrors} from '../../../source/incidents/index.js';
import {request, startTarget, startTestProxy, type TestTarget} from './harness.js';

let target: TestTarget | undefined;
let proxy: DevProxy | undefined;
let rawServer: net.Server | undefined;
afterEach(async () => {
  await proxy?.stop();
  await target?.close();
  rawServer?.close();
  proxy = undefined;
  target = undefined;
  rawServer = undefined;
});

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const {port} = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A TCP server that answers each connection with `onConnection` (HTTP that Node would never send). */
async function rawTarget(onConnection: (socket: net.Socket) => void): Promise<string> {
  rawServer = net.createServer(onConnection);
  await new Promise<void>((resolve) => rawServer!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(rawServer.address() as AddressInfo).port}`;
}

const diagnostics = (devProxy: DevProxy) => devProxy.log({types: ['diagnostic']}) as DiagnosticTraffic[];

describe('when the target fails', () => {
  it('is down from the start: a readable 502 page, a transport-error entry and an ECONNREFUSED diagnostic', async () => {
    const port = await closedPort();
    proxy = await startTestProxy(`http://127.0.0.1:${port}`);
    const answer = await request(`${proxy.info.url}/dashboard`, {headers: {accept: 'text/html'}});
    expect(answer.status).toBe(502);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
    expect(answer.text).toContain(`http://127.0.0.1:${port}`);
    expect(answer.text).toContain('connection refused');
    expect(answer.text).toContain('GET /dashboard');
    expect(diagnostics(proxy)).toEqual([expect.objectContaining({level: 'error', category: 'ECONNREFUSED', method: 'GET', url: '/dashboard'})]);
    const entry = proxy.log({types: ['http']})[0] as HttpTraffic;
    expect(entry).toMatchObject({status: 0, url: '/dashboard', error: expect.stringContaining('ECONNREFUSED')});
    // The log shows the diagnostic beside the request; the inbox has one entry for the one failure.
    expect(proxy.records().diagnostics).toEqual([]);
    expect(proxy.info.errors).toBe(1);
    const errors = queryErrors({processAlerts: [], proxies: [proxy.records()]});
    expect(errors).toEqual([
      expect.objectContaining({
        source: 'proxy:http',
        severity: 'error',
        category: 'transport error',
        message: expect.stringMatching(/^GET \/dashboard → ECONNREFUSED: /),
        count: 1,
      }),
    ]);
  });

  it('goes away mid-stream: the browser sees the connection break, and the log says so', async () => {
    target = await startTarget((_req, res) => {
      res.writeHead(200, {'content-type': 'text/plain'});
      res.write('part one;');
      setImmediate(() => res.socket?.destroy());
    });
    proxy = await startTestProxy(target.url);
    const outcome = await new Promise<{data: string; broken: boolean}>((resolve) => {
      let data = '';
      http
        .get(`${proxy!.info.url}/stream`, {agent: false}, (res) => {
          res.on('data', (chunk: Buffer) => (data += chunk.toString()));
          res.on('end', () => resolve({data, broken: !res.complete}));
          res.on('error', () => resolve({data, broken: true}));
          res.on('aborted', () => resolve({data, broken: true}));
        })
        .on('error', () => resolve({data, broken: true}));
    });
    expect(outcome.broken).toBe(true);
    expect(outcome.data).toBe('part one;');
    await vi.waitFor(
      () => expect(diagnostics(proxy!)).toEqual([expect.objectContaining({level: 'error', category: 'ECONNRESET', message: expect.stringContaining('broke off')})]),
      {
        timeout: 15_000,
      },
    );
    // The response began with a 200, so the diagnostic is the one inbox entry that says it broke off.
    expect(queryErrors({processAlerts: [], proxies: [proxy.records()]}).map((error) => [error.source, error.category])).toEqual([['proxy:diagnostic', 'ECONNRESET']]);
    expect(proxy.log({types: ['http']})[0]).toMatchObject({status: 200, responseBytes: 9, error: expect.stringContaining('ECONNRESET')});
  });

  it('never answers: 502 after the target timeout, as ETIMEDOUT', async () => {
    target = await startTarget(() => {});
    proxy = await startTestProxy(target.url, {targetTimeoutMs: 300});
    const answer = await request(`${proxy.info.url}/slow`);
    expect(answer.status).toBe(502);
    expect(diagnostics(proxy)[0]).toMatchObject({category: 'ETIMEDOUT'});
  });

  it('sends a malformed response: 502, malformed_response', async () => {
    const url = await rawTarget((socket) => socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\nContent-Length: nope\r\n\r\nhello')));
    proxy = await startTestProxy(url);
    const answer = await request(`${proxy.info.url}/`);
    expect(answer.status).toBe(502);
    expect(answer.text).toContain('malformed HTTP response');
    expect(diagnostics(proxy)[0]).toMatchObject({category: 'malformed_response'});
  });

  it('sends a huge response: all of it reaches the browser, the log keeps the first 2 KB', async () => {
    const size = 24 * 1024 * 1024;
    target = await startTarget((_req, res) => {
      res.writeHead(200, {'content-type': 'application/json'});
      const block = Buffer.alloc(1024 * 1024, 'x');
      let sent = 0;
      const more = () => {
        while (sent < size) {
          sent += block.length;
          if (!res.write(block)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    });
    proxy = await startTestProxy(target.url);
    const answer = await request(`${proxy.info.url}/big`);
    expect(answer.body.length).toBe(size);
    const entry = proxy.log({types: ['http']})[0] as HttpTraffic;
    expect(entry.responseBytes).toBe(size);
    expect(entry.body).toHaveLength(2048);
  });

  it('refuses a WebSocket upgrade it cannot forward with a 502 and a diagnostic', async () => {
    const port = await closedPort();
    proxy = await startTestProxy(`http://127.0.0.1:${port}`);
    const {WebSocket} = await import('ws');
    const status = await new Promise<number>((resolve) => {
      const socket = new WebSocket(`ws://127.0.0.1:${proxy!.info.port}/hmr`);
      socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      socket.on('error', () => resolve(-1));
    });
    expect(status).toBe(502);
    expect(diagnostics(proxy)[0]).toMatchObject({category: 'ECONNREFUSED'});
    expect(queryErrors({processAlerts: [], proxies: [proxy.records()]}).map((error) => [error.source, error.severity, error.category])).toEqual([
      ['proxy:http', 'error', 'transport error'],
    ]);
  });
});
