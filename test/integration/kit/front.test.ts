// The kit's front (servers/kit/front.ts): answers held requests below node:http on a new
// connection and hands the connection to node:http at the first request it cannot take. Probed
// over raw sockets, since what matters is the exact bytes, the order of pipelined answers and what
// happens to a request that arrives in pieces or is not plain.
import {connect, type Socket} from 'node:net';
import type {FastifyInstance} from 'fastify';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {createServer, noQuery, type Front, type FrontRequest} from '../../../servers/kit/index.js';
import {mayBecomeFrontRequest, parseFrontHead} from '../../../servers/kit/front.js';

const body = Buffer.from('<rss>hot</rss>');
const okHeaders = ['content-type', 'application/rss+xml', 'etag', '"v1"', 'content-length', String(body.length)];
const notModifiedHeaders = ['etag', '"v1"'];
const seen: FrontRequest[] = [];

// Answers /hot (304 for its tag); everything else is fastify's.
const front: Front = (request) => {
  seen.push(request);
  if (request.url !== '/hot') return undefined;
  return request.headers['if-none-match'] === '"v1"' ? {status: 304, headers: notModifiedHeaders} : {status: 200, headers: okHeaders, body};
};

let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  app = createServer({name: 'front-test', front});
  app.get('/cold', {schema: {querystring: noQuery}}, async () => ({cold: true}));
  app.post('/echo', {schema: {querystring: noQuery, body: {type: 'object'}}}, async (request) => ({echo: request.body}));
  await app.listen({port: 0, host: '127.0.0.1'});
  port = (app.server.address() as {port: number}).port;
});
afterAll(async () => {
  await app?.close();
});

interface Answer {
  status: number;
  head: string;
  body: string;
}

/** Reads answers off one connection: each ends after its Content-Length (none for 304 and HEAD). */
function reader(socket: Socket) {
  let text = '';
  const waiters: Array<() => void> = [];
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    text += chunk;
    for (const wake of waiters.splice(0)) wake();
  });
  const take = (bodyless: boolean): Answer | undefined => {
    const end = text.indexOf('\r\n\r\n');
    if (end === -1) return undefined;
    const head = text.slice(0, end);
    const length = bodyless ? 0 : Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
    if (text.length < end + 4 + length) return undefined;
    const answer = {status: Number(head.slice(9, 12)), head, body: text.slice(end + 4, end + 4 + length)};
    text = text.slice(end + 4 + length);
    return answer;
  };
  return {
    async next(bodyless = false): Promise<Answer> {
      for (;;) {
        const answer = take(bodyless);
        if (answer) return answer;
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no whole answer in 5 s; have ${JSON.stringify(text)}`)), 5000);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
  };
}

async function open(): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  return socket;
}

const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${extra}\r\n`;
const withoutDate = (head: string) => head.replace(/\r\ndate: [^\r]*/i, '');

describe('the kit front', () => {
  it('answers a held request with the same head node:http would give, Date and keep-alive included', async () => {
    const raw = await open();
    const answers = reader(raw);
    raw.write(get('/hot'));
    const fast = await answers.next();
    // A connection node:http owns (it read /cold first) answers /hot through the same front.
    const nodeSide = await open();
    const nodeAnswers = reader(nodeSide);
    nodeSide.write(get('/cold') + get('/hot'));
    expect((await nodeAnswers.next()).status).toBe(200);
    const slow = await nodeAnswers.next();
    expect(fast.status).toBe(200);
    expect(fast.body).toBe('<rss>hot</rss>');
    expect(fast.head).toMatch(/\r\nDate: \w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT/);
    expect(withoutDate(fast.head).toLowerCase()).toBe(withoutDate(slow.head).toLowerCase());
    expect(fast.body).toBe(slow.body);
    raw.destroy();
    nodeSide.destroy();
  });

  it('answers HEAD without a body and a current tag with 304', async () => {
    const socket = await open();
    const answers = reader(socket);
    socket.write(`HEAD /hot HTTP/1.1\r\nHost: x\r\n\r\n`);
    const head = await answers.next(true);
    expect(head.status).toBe(200);
    expect(head.head).toMatch(/content-length: 14/);
    socket.write(get('/hot', 'If-None-Match: "v1"\r\n'));
    const conditional = await answers.next(true);
    expect(conditional.status).toBe(304);
    expect(conditional.head).not.toMatch(/content-length/i);
    socket.write(get('/hot'));
    expect((await answers.next()).body).toBe('<rss>hot</rss>');
    socket.destroy();
  });

  it('answers pipelined requests in order, and a request that arrives a byte at a time', async () => {
    const socket = await open();
    const answers = reader(socket);
    socket.write(get('/hot') + get('/hot', 'If-None-Match: "v1"\r\n') + get('/hot'));
    expect((await answers.next()).status).toBe(200);
    expect((await answers.next(true)).status).toBe(304);
    expect((await answers.next()).status).toBe(200);
    for (const byte of get('/hot')) {
      socket.write(byte);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect((await answers.next()).body).toBe('<rss>hot</rss>');
    socket.destroy();
  });

  it('hands the connection to node:http at the first request it cannot take, unread bytes included', async () => {
    const socket = await open();
    const answers = reader(socket);
    // /hot is answered here, /cold by fastify, and the POST and /hot behind it in the same write too.
    socket.write(get('/hot'));
    expect((await answers.next()).status).toBe(200);
    const post = `POST /echo HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 9\r\n\r\n{"a":"b"}`;
    socket.write(get('/cold') + post + get('/hot'));
    const cold = await answers.next();
    expect([cold.status, cold.body]).toEqual([200, '{"cold":true}']);
    const echo = await answers.next();
    expect([echo.status, echo.body]).toEqual([200, '{"echo":{"a":"b"}}']);
    expect((await answers.next()).body).toBe('<rss>hot</rss>');
    socket.destroy();
  });

  it('leaves every request that is not plain to node:http, which answers it as it always does', async () => {
    const cases: Array<[string, number]> = [
      // a body on a GET: node reads it (fastify answers the GET)
      [`GET /hot HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc`, 200],
      // chunked, smuggling-shaped: both framing headers at once is node's to refuse
      [`GET /hot HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`, 400],
      // a space before the colon
      [`GET /hot HTTP/1.1\r\nHost : x\r\n\r\n`, 400],
      // a folded header
      [`GET /hot HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n  2\r\n\r\n`, 400],
      // bare LF line ends
      [`GET /hot HTTP/1.1\nHost: x\n\n`, 400],
    ];
    for (const [request, status] of cases) {
      const socket = await open();
      const answers = reader(socket);
      socket.write(request);
      const answer = await answers.next();
      expect(answer.status, JSON.stringify(request)).toBe(status);
      if (status === 400) expect(answer.body, JSON.stringify(request)).toMatch(/"error"/);
      socket.destroy();
    }
  });

  it('parses only plain heads: one request line, token names, each header once, keep-alive or nothing', () => {
    expect(parseFrontHead('GET /a?b=c HTTP/1.1\r\nHost: x\r\nAccept:  text/xml \r\nConnection: Keep-Alive')).toEqual({
      method: 'GET',
      url: '/a?b=c',
      headers: expect.objectContaining({host: 'x', accept: 'text/xml', connection: 'Keep-Alive'}) as unknown,
    });
    for (const head of [
      'get /a HTTP/1.1',
      'GET /a HTTP/1.0',
      'GET  /a HTTP/1.1',
      'GET http://x/a HTTP/1.1',
      'POST /a HTTP/1.1',
      'GET /a b HTTP/1.1',
      'GET /a HTTP/1.1\r\nHost: x\r\nhost: y',
      'GET /a HTTP/1.1\r\nConnection: close',
      'GET /a HTTP/1.1\r\nConnection: upgrade\r\nUpgrade: websocket',
      'GET /a HTTP/1.1\r\nExpect: 100-continue',
      'GET /a HTTP/1.1\r\nX: a\rb',
      'GET /a HTTP/1.1\r\nX: a\x00b',
      'GET /a HTTP/1.1\r\n: empty',
      'GET /a HTTP/1.1\r\n',
    ]) {
      expect(parseFrontHead(head), JSON.stringify(head)).toBeUndefined();
    }
    // A header named like an Object property stays data.
    expect(parseFrontHead('GET /a HTTP/1.1\r\n__proto__: x')?.headers['__proto__']).toBe('x');
  });

  it('a head past 16 KB goes to node:http, which refuses it', async () => {
    const socket = await open();
    const answers = reader(socket);
    socket.write(`GET /hot HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`);
    expect((await answers.next()).status).toBe(431);
    socket.destroy();
  });

  it('closing the server closes the connections the front holds', async () => {
    const local = createServer({name: 'front-close', front});
    await local.listen({port: 0, host: '127.0.0.1'});
    const socket = connect((local.server.address() as {port: number}).port, '127.0.0.1');
    const answers = reader(socket);
    socket.write(get('/hot'));
    await answers.next();
    const closed = new Promise((resolve) => socket.once('close', resolve));
    await local.close();
    await closed;
    expect(socket.destroyed).toBe(true);
  });
});

// What node:http answers on every kit server, the front's connections included: one rule for
// the reader, GraphQL (no front) and the gateway (front).
describe('bytes that are not a request the front takes, and heads that never end', () => {
  // The start of a TLS 1.2 ClientHello: a client speaking HTTPS to the plain port.
  const clientHello = Buffer.from('16030100a5010000a10303' + '00'.repeat(32) + '000002c02f0100', 'hex');

  /** Everything the server sends until it closes the connection. */
  async function untilClosed(port: number, send: (socket: Socket) => void): Promise<string> {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    await new Promise((resolve) => socket.once('connect', resolve));
    send(socket);
    await new Promise((resolve) => socket.once('close', resolve));
    return text;
  }

  async function withServers(options: {headersTimeoutMs?: number}, check: (port: number, fronted: boolean) => Promise<void>): Promise<void> {
    for (const fronted of [true, false]) {
      const local = createServer({name: 'front-edges', ...(fronted ? {front} : {}), ...options});
      await local.listen({port: 0, host: '127.0.0.1'});
      try {
        await check((local.server.address() as {port: number}).port, fronted);
      } finally {
        await local.close();
      }
    }
  }

  it('answers a TLS ClientHello, garbage and a partial non-GET with 400 and closes, with or without a front', async () => {
    await withServers({}, async (port, fronted) => {
      for (const bytes of [clientHello, Buffer.from('\x00\x01\x02garbage'), Buffer.from('BREW /pot HTTP/1.1\r\nHost')]) {
        const answer = await untilClosed(port, (socket) => socket.write(bytes));
        expect(answer, `${fronted ? 'front' : 'no front'}: ${JSON.stringify(bytes.toString('latin1'))}`).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
        expect(answer).toContain('"code":"bad_request"');
      }
    });
  }, 30_000);

  it('answers a head that does not arrive within headersTimeout with 408 and closes, with or without a front', async () => {
    await withServers({headersTimeoutMs: 300}, async (port, fronted) => {
      // Nothing at all, a request line that stops, and a header that never ends.
      for (const bytes of ['', 'GET /ho', 'GET /hot HTTP/1.1\r\nHost: x\r\nX-Slow: a']) {
        const answer = await untilClosed(port, (socket) => socket.write(bytes));
        expect(answer, `${fronted ? 'front' : 'no front'}: ${JSON.stringify(bytes)}`).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
        expect(answer).toContain('"code":"request_timeout"');
      }
      // A connection answered once (by the front, or node's 404): its next head, begun and not finished, is late too.
      const answer = await untilClosed(port, (socket) => socket.write(`GET /hot HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\nGET /hot HTTP/1.1\r\n`));
      expect(answer).toMatch(fronted ? /^HTTP\/1\.1 200 OK\r\n/ : /^HTTP\/1\.1 404 Not Found\r\n/);
      expect(answer).toMatch(/\r\n\r\n[^]*HTTP\/1\.1 408 Request Timeout\r\n/);
    });
  }, 30_000);

  it('the front still takes a request line that arrives a byte at a time', () => {
    const line = 'GET /hot HTTP/1.1\r\n';
    for (let length = 0; length <= line.length; length++) expect(mayBecomeFrontRequest(line.slice(0, length)), JSON.stringify(line.slice(0, length))).toBe(true);
    for (const start of ['\x16\x03', 'POST', 'GET  ', 'GET /a HTTP/1.0\r\n', 'GET /a HTTX', 'get /', 'GET /a HTTP/1.1 x']) {
      expect(mayBecomeFrontRequest(start), JSON.stringify(start)).toBe(false);
    }
  });
});
