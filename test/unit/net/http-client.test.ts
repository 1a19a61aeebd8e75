// The outbound client's own limits, against real servers on 127.0.0.1.
import {brotliCompressSync, deflateSync, gzipSync} from 'node:zlib';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {sendRequest} from '../../../source/net/http-client.js';
import {OutboundError} from '../../../source/net/outbound-error.js';
import {PUBLIC_ADDRESS, closedPort, startOrigin, testNetwork, type TestOrigin} from '../../helpers/test-network.js';

let origin: TestOrigin;
let base: string;
const zeros = Buffer.alloc(8 * 1024 * 1024);
const packed = {gzip: gzipSync(zeros), deflate: deflateSync(zeros), br: brotliCompressSync(zeros)};

beforeAll(async () => {
  origin = await startOrigin((request, response) => {
    const path = request.url ?? '/';
    const encoding = /^\/packed\/(gzip|deflate|br)$/.exec(path)?.[1] as keyof typeof packed | undefined;
    if (encoding) return void response.writeHead(200, {'content-encoding': encoding}).end(packed[encoding]);
    if (path === '/small-gzip') return void response.writeHead(200, {'content-encoding': 'gzip'}).end(gzipSync('hello'));
    if (path === '/raw-deflate') return void response.writeHead(200, {'content-encoding': 'deflate'}).end(deflateSync('hello', {}).subarray(2, -4));
    if (path === '/broken-gzip') return void response.writeHead(200, {'content-encoding': 'gzip'}).end('not gzip at all');
    if (path === '/chunked') {
      response.writeHead(200);
      for (let i = 0; i < 64; i++) response.write(Buffer.alloc(16 * 1024, 1));
      return void response.end();
    }
    if (path === '/silent') return; // never answers
    if (path === '/stall') {
      response.writeHead(200, {'content-length': '100'});
      return void response.write('partial');
    }
    response.writeHead(200, {'content-type': 'text/plain'}).end('ok');
  });
  base = `http://127.0.0.1:${origin.port}`;
});
afterAll(() => origin.close());

const send = (path: string, options: Partial<Parameters<typeof sendRequest>[1]> = {}) =>
  sendRequest(new URL(`${base}${path}`), {timeoutMs: 5000, maxBytes: 1024 * 1024, policy: {allowPrivate: true}, ...options});

async function failure(promise: Promise<unknown>): Promise<OutboundError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

describe('sendRequest', () => {
  it('answers status, headers and body', async () => {
    const answer = await send('/');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('Content-Type')).toBe('text/plain');
    expect(answer.body.toString()).toBe('ok');
  });

  it('decodes gzip and a raw deflate body when asked, and leaves bodies alone otherwise', async () => {
    expect((await send('/small-gzip', {decompress: true})).body.toString()).toBe('hello');
    expect((await send('/raw-deflate', {decompress: true})).body.toString()).toBe('hello');
    expect((await send('/small-gzip')).body.equals(gzipSync('hello'))).toBe(true);
  });

  it('stops gzip, deflate and brotli bombs at the cap once decompressed (8 MB of zeros, a 1 MB cap)', async () => {
    for (const encoding of ['gzip', 'deflate', 'br'] as const) {
      expect(packed[encoding].length).toBeLessThan(1024 * 1024);
      const error = await failure(send(`/packed/${encoding}`, {decompress: true}));
      expect(error.kind, encoding).toBe('too_large');
      expect(error.message).toBe(`the response from ${base}/packed/${encoding} is larger than 1 MB once decompressed`);
    }
    // Under a cap that holds it, the same body decodes whole.
    expect((await send('/packed/gzip', {decompress: true, maxBytes: 8 * 1024 * 1024})).body.length).toBe(8 * 1024 * 1024);
  });

  it('says so when a body claims an encoding it does not have', async () => {
    const error = await failure(send('/broken-gzip', {decompress: true}));
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/^cannot decode the gzip body of http:\/\/127\.0\.0\.1:\d+\/broken-gzip: /);
  });

  it('stops a chunked body at the cap on the wire', async () => {
    const error = await failure(send('/chunked', {maxBytes: 100_000}));
    expect(error.kind).toBe('too_large');
    expect(error.message).toBe(`the response from ${base}/chunked is larger than 97.66 KB`);
  });

  it('times out waiting for headers and waiting for the rest of a body', async () => {
    const silent = await failure(send('/silent', {timeoutMs: 200}));
    expect(silent).toMatchObject({kind: 'timeout', message: `${base}/silent timed out after 0.2 s`});
    const stalled = await failure(send('/stall', {timeoutMs: 200}));
    expect(stalled.kind).toBe('timeout');
  });

  it('stops when the caller cancels', async () => {
    const controller = new AbortController();
    const pending = send('/silent', {signal: controller.signal});
    setTimeout(() => controller.abort(), 20);
    expect((await failure(pending)).kind).toBe('cancelled');
  });

  it('names the system error of a typed URL that cannot be reached', async () => {
    const port = await closedPort();
    const error = await failure(sendRequest(new URL(`http://127.0.0.1:${port}/`), {timeoutMs: 5000, maxBytes: 1000, policy: {allowPrivate: true}}));
    expect(error).toMatchObject({kind: 'network', code: 'ECONNREFUSED'});
    const unknown = await failure(sendRequest(new URL('http://nowhere.test/'), {timeoutMs: 5000, maxBytes: 1000, policy: {allowPrivate: true}, network: testNetwork({})}));
    expect(unknown).toMatchObject({kind: 'network', code: 'ENOTFOUND'});
  });

  it('refuses before connecting, with one message for an open and a closed port', async () => {
    const port = await closedPort();
    const policy = {allowPrivate: false};
    const open = await failure(sendRequest(new URL(`${base}/`), {timeoutMs: 5000, maxBytes: 1000, policy}));
    const shut = await failure(sendRequest(new URL(`http://127.0.0.1:${port}/`), {timeoutMs: 5000, maxBytes: 1000, policy}));
    expect(open.kind).toBe('refused');
    expect(shut.message).toBe(open.message);
    const hits = origin.hits.length;
    const named = await failure(
      sendRequest(new URL(`http://local.test:${origin.port}/`), {timeoutMs: 5000, maxBytes: 1000, policy, network: testNetwork({'local.test': '127.0.0.1'})}),
    );
    expect(named.kind).toBe('refused');
    expect(origin.hits.length).toBe(hits);
    // The same name through a public-looking address is fetched (the test network dials 127.0.0.1).
    const allowed = await sendRequest(new URL(`http://public.test:${origin.port}/`), {
      timeoutMs: 5000,
      maxBytes: 1000,
      policy,
      network: testNetwork({'public.test': PUBLIC_ADDRESS}),
    });
    expect(allowed.body.toString()).toBe('ok');
  });
});
