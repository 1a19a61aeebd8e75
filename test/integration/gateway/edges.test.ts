// The gateway's edges as others meet them (issue 28): bytes that are not HTTP and heads that
// never end get the kit's 400 and 408 on the gateway's front as on the other servers; and its
// WebSub hub refuses callbacks into this machine when others reach it (--public-url), and
// callbacks into the gateway itself always. In-process gateways on 127.0.0.1 over real sockets;
// subscriber names resolve through an injected network that dials 127.0.0.1 only.
import {mkdtempSync, rmSync} from 'node:fs';
import http from 'node:http';
import {connect, type AddressInfo} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest';
import {privateCallbacksAllowed, startGatewayServer, type GatewayServer, type GatewayServerOptions} from '../../../servers/gateway/index.js';
import {PUBLIC_ADDRESS, testNetwork} from '../../helpers/test-network.js';

const PUBLIC_URL = 'http://gateway.example:8080';

let dir: string;
const previousHome = process.env.WORKBENCH_HOME;
const verified: string[] = [];
let subscriber: http.Server;
let subscriberPort: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-gateway-edges-'));
  process.env.WORKBENCH_HOME = join(dir, 'home');
  // Echoes every intent verification's challenge: a request that gets here is accepted.
  subscriber = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://subscriber.invalid');
    verified.push(url.pathname);
    response.writeHead(200, {'content-type': 'text/plain'}).end(url.searchParams.get('hub.challenge') ?? '');
  });
  await new Promise<void>((resolve) => subscriber.listen(0, '127.0.0.1', resolve));
  subscriberPort = (subscriber.address() as AddressInfo).port;
});
afterAll(async () => {
  subscriber?.closeAllConnections();
  await new Promise((resolve) => subscriber?.close(resolve));
  if (previousHome === undefined) delete process.env.WORKBENCH_HOME;
  else process.env.WORKBENCH_HOME = previousHome;
  rmSync(dir, {recursive: true, force: true});
});

let started = 0;
async function withGateway(options: Partial<GatewayServerOptions>, check: (server: GatewayServer) => Promise<void>): Promise<void> {
  const server = await startGatewayServer({port: 0, db: join(dir, `gateway-${started++}.sqlite`), config: {feeds: []}, background: false, ...options});
  try {
    await check(server);
  } finally {
    await server.close();
  }
}

/** Everything the gateway sends on a raw connection until it closes it. */
async function untilClosed(url: string, bytes: Buffer | string): Promise<string> {
  const socket = connect(Number(new URL(url).port), '127.0.0.1');
  let text = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (text += chunk));
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(bytes);
  await new Promise((resolve) => socket.once('close', resolve));
  return text;
}

describe("the gateway's front", () => {
  it('answers a TLS ClientHello with 400 and closes the connection', async () => {
    // The start of a TLS 1.2 ClientHello: a client speaking HTTPS to the plain port.
    const clientHello = Buffer.from('16030100a5010000a10303' + '00'.repeat(32) + '000002c02f0100', 'hex');
    await withGateway({}, async (server) => {
      const answer = await untilClosed(server.url, clientHello);
      expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(answer).toContain('"code":"bad_request"');
    });
  }, 30_000);

  it('answers a request head that does not arrive within its headers timeout with 408 and closes the connection', async () => {
    await withGateway({headersTimeoutMs: 300}, async (server) => {
      const answer = await untilClosed(server.url, 'GET /news HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: still coming');
      expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(answer).toContain('"code":"request_timeout"');
    });
  }, 30_000);
});

/** A live channel's id: a topic the hub serves. */
async function channelOf(server: GatewayServer): Promise<string> {
  const response = await fetch(`${server.url}/api/channels`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({title: 'Hooks'})});
  expect(response.status).toBe(201);
  return ((await response.json()) as {id: string}).id;
}

async function subscribe(server: GatewayServer, topic: string, callback: string): Promise<{status: number; code?: string; message?: string}> {
  const response = await fetch(`${server.url}/api/websub`, {
    method: 'POST',
    headers: {'content-type': 'application/x-www-form-urlencoded'},
    body: new URLSearchParams({'hub.mode': 'subscribe', 'hub.topic': topic, 'hub.callback': callback}).toString(),
  });
  const text = await response.text();
  const error = text ? (JSON.parse(text) as {error: {code: string; message: string}}).error : undefined;
  return {status: response.status, code: error?.code, message: error?.message};
}

const network = () =>
  testNetwork({
    localhost: '127.0.0.1',
    'loopback.example': '127.0.0.1',
    'lan.example': '192.168.1.5',
    'hooks.example': PUBLIC_ADDRESS,
    'gateway.example': PUBLIC_ADDRESS,
  });

describe('WebSub callbacks', () => {
  it('with --public-url, loopback, private and link-local callbacks are refused 400, names resolving to them too; a public one is accepted', async () => {
    await withGateway({publicUrl: PUBLIC_URL, network: network()}, async (server) => {
      const topic = `${PUBLIC_URL}/${await channelOf(server)}`;
      for (const [callback, says] of [
        [`http://127.0.0.1:${subscriberPort}/hook`, 'private or loopback'],
        ['http://[::1]/hook', 'private or loopback'],
        ['http://10.0.0.1/hook', 'private or loopback'],
        ['http://169.254.169.254/latest/meta-data/', 'link-local'],
        [`http://localhost:${subscriberPort}/hook`, 'private or loopback'],
        [`http://loopback.example:${subscriberPort}/hook`, 'private or loopback'],
        ['http://lan.example/hook', 'private or loopback'],
      ]) {
        const answer = await subscribe(server, topic, callback!);
        expect(answer, callback).toMatchObject({status: 400, code: 'invalid_argument'});
        expect(answer.message, callback).toContain('hub.callback');
        expect(answer.message, callback).toContain(says);
      }
      expect(verified).toEqual([]);
      // hooks.example resolves to a public address; the test network dials the subscriber for it.
      expect(await subscribe(server, topic, `http://hooks.example:${subscriberPort}/public`)).toEqual({status: 202});
      await vi.waitFor(async () => expect(await server.service.hub.subscriptions()).toHaveLength(1), {timeout: 10_000});
      expect(verified).toEqual(['/public']);
    });
  }, 30_000);

  it("a callback at the gateway's own origin is refused, public or listening, loopback or not", async () => {
    await withGateway({publicUrl: PUBLIC_URL, network: network()}, async (server) => {
      const topic = `${PUBLIC_URL}/${await channelOf(server)}`;
      const port = new URL(server.url).port;
      for (const callback of [`${PUBLIC_URL}/api/channels`, `${server.url}/api/channels`, `http://localhost:${port}/api/channels`]) {
        const answer = await subscribe(server, topic, callback);
        expect(answer, callback).toMatchObject({status: 400, code: 'invalid_argument'});
        expect(answer.message, callback).toContain('leads back to this gateway');
      }
    });
    // On loopback with no public URL, local callbacks are allowed, but not the gateway's own port.
    verified.length = 0;
    await withGateway({network: network()}, async (server) => {
      const topic = `${server.url}/${await channelOf(server)}`;
      const port = new URL(server.url).port;
      for (const callback of [
        `${server.url}/api/channels`,
        `http://localhost:${port}/api/channels`,
        `http://[::1]:${port}/`,
        `http://127.0.0.2:${port}/`,
        `http://loopback.example:${port}/`,
      ]) {
        const answer = await subscribe(server, topic, callback);
        expect(answer, callback).toMatchObject({status: 400, code: 'invalid_argument'});
        expect(answer.message, callback).toContain('leads back to this gateway');
      }
      expect(await subscribe(server, topic, `http://127.0.0.1:${subscriberPort}/local`)).toEqual({status: 202});
      await vi.waitFor(async () => expect(await server.service.hub.subscriptions()).toHaveLength(1), {timeout: 10_000});
      expect(verified).toEqual(['/local']);
    });
  }, 30_000);

  it('private callbacks are allowed only to a gateway on loopback with no public URL', () => {
    expect(privateCallbacksAllowed('127.0.0.1', undefined)).toBe(true);
    expect(privateCallbacksAllowed('::1', undefined)).toBe(true);
    expect(privateCallbacksAllowed('127.0.0.1', PUBLIC_URL)).toBe(false);
    expect(privateCallbacksAllowed('0.0.0.0', undefined)).toBe(false);
    expect(privateCallbacksAllowed('192.168.1.5', undefined)).toBe(false);
  });
});
