// Failures that happen before a route runs — fastify's routing refusals and requests Node's HTTP
// parser refuses — answer the one error body too. Probed over raw sockets, since no HTTP client
// sends such requests, against the reader as `serve reader` starts it.
import {existsSync, mkdtempSync, readFileSync, rmSync, statSync} from 'node:fs';
import {connect} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, expect, it} from 'vitest';
import {buildReaderApp, startReaderServer, type ReaderServer} from '../../../servers/reader/index.js';
import type {ReaderService} from '../../../source/feeds/contracts.js';
import {eventually} from '../../helpers/cli.js';

let dir: string;
let server: ReaderServer;
let port: number;
let logFile: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-wire-'));
  logFile = join(dir, 'home', 'logs', 'reader.log');
  server = await startReaderServer({port: 0, db: join(dir, 'reader.sqlite'), poll: false, logFile});
  port = Number(new URL(server.url).port);
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, {recursive: true, force: true});
});

/** Sends bytes as they are and reads the answer until the server closes or a whole response is in. */
function rawRequest(bytes: string | Buffer): Promise<{status: number; headers: string; body: string}> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const done = () => {
      const head = text.slice(0, text.indexOf('\r\n\r\n'));
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
      resolve({status, headers: head, body: text.slice(head.length + 4)});
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      text += chunk;
      const length = /content-length: (\d+)/i.exec(text)?.[1];
      const headEnd = text.indexOf('\r\n\r\n');
      if (length !== undefined && headEnd >= 0 && Buffer.byteLength(text.slice(headEnd + 4)) >= Number(length)) {
        socket.destroy();
        done();
      }
    });
    socket.on('close', () => (text ? done() : reject(new Error('closed without an answer'))));
    socket.on('error', () => {});
    socket.write(bytes);
  });
}

const get = (path: string, extra = '') => rawRequest(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${extra}Connection: close\r\n\r\n`);

function expectErrorBody(answer: {status: number; headers: string; body: string}, status: number, code: string): void {
  expect(answer.status, answer.headers + answer.body).toBe(status);
  expect(answer.headers).toMatch(/content-type: application\/json/i);
  const body = JSON.parse(answer.body);
  expect(body).toEqual({error: {code, message: expect.any(String)}});
  expect(answer.body).not.toMatch(/FST_|statusCode|\n\s+at /);
}

it('a path that is not valid URL encoding is 400 invalid_argument', async () => {
  expectErrorBody(await get('/api/v1/feeds/%E0%A4%A'), 400, 'invalid_argument');
  expectErrorBody(await get('/api/v1/%'), 400, 'invalid_argument');
});

it('a path parameter over the router’s limit is 414 uri_too_long', async () => {
  expectErrorBody(await get(`/api/v1/lists/${'t'.repeat(500)}.xml`), 414, 'uri_too_long');
});

it('headers over Node’s size limit are 431 headers_too_large', async () => {
  expectErrorBody(await get('/api/v1/health', `X-Big: ${'b'.repeat(20_000)}\r\n`), 431, 'headers_too_large');
});

it('malformed HTTP is 400 bad_request', async () => {
  expectErrorBody(await rawRequest('NONSENSE\r\n\r\n'), 400, 'bad_request');
  expectErrorBody(await rawRequest(`GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: x\r\n\r\n`), 400, 'bad_request');
  expectErrorBody(await rawRequest(`POST /api/v1/lists HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`), 400, 'bad_request');
});

it('a request without Host is refused in the same shape', async () => {
  expectErrorBody(await rawRequest('GET /api/v1/health HTTP/1.1\r\nConnection: close\r\n\r\n'), 403, 'host_not_allowed');
  expectErrorBody(await rawRequest('GET /api/v1/health HTTP/1.0\r\n\r\n'), 403, 'host_not_allowed');
});

it('the server is still well after all of them, and logs each request in one line to its 0600 log', async () => {
  const answer = await get('/api/v1/health');
  expect(answer.status).toBe(200);
  expect(JSON.parse(answer.body)).toEqual({ok: true});
  expect(statSync(logFile).mode & 0o777).toBe(0o600);
  // The log is a write stream: the line lands just after the answer.
  const logged = () =>
    readFileSync(logFile, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  await eventually(() => logged().some((line) => line.msg === 'GET /api/v1/health' && line.status === 200));
});

it('a 500 names the log that has its details, and that log exists and has them', async () => {
  const broken = new Proxy({} as ReaderService, {
    get: () => async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'secret_column')");
    },
  });
  const brokenLog = join(dir, 'home', 'logs', 'broken.log');
  const app = buildReaderApp({service: broken, logFile: brokenLog});
  try {
    const response = await app.inject({method: 'GET', url: '/api/v1/feeds'});
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({error: {code: 'internal', message: `internal error; the server log has the details: ${brokenLog}`}});
  } finally {
    await app.close();
  }
  expect(existsSync(brokenLog)).toBe(true);
  expect(readFileSync(brokenLog, 'utf8')).toContain('secret_column');
});
