import {createServer, request, type Server} from 'node:http';
import {connect, type AddressInfo} from 'node:net';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {REFUSED_HEADER, startGuardProxy, UNREACHABLE_HEADER, type GuardProxy} from '../../../source/browser/guard-proxy.js';

/** The forward proxy a driven browser goes through: the address policy of source/net for every request. */

let target: Server;
let targetPort: number;

beforeAll(async () => {
  target = createServer((req, res) =>
    res.writeHead(200, {'content-type': 'text/plain', 'set-cookie': ['a=1', 'b=2']}).end(`hello ${req.method} ${req.url} ${req.headers['proxy-connection'] ?? '-'}`),
  );
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetPort = (target.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => target.close(() => resolve())));

function viaProxy(proxy: GuardProxy, url: string): Promise<{status: number; headers: Record<string, string | string[] | undefined>; body: string}> {
  const {port} = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {host: '127.0.0.1', port, method: 'GET', path: url, headers: {host: URL.canParse(url) ? new URL(url).host : 'x', 'proxy-connection': 'keep-alive'}},
      (response) => {
        let body = '';
        response.setEncoding('utf8').on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({status: response.statusCode ?? 0, headers: response.headers, body}));
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

function connectVia(proxy: GuardProxy, authority: string): Promise<string> {
  const {port} = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(`CONNECT ${authority} HTTP/1.1\r\nhost: ${authority}\r\n\r\n`));
    socket.setEncoding('utf8').once('data', (chunk: string) => {
      socket.destroy();
      resolve(chunk.split('\r\n')[0]!);
    });
    socket.on('error', reject);
  });
}

describe('the guard proxy', () => {
  it('forwards to a private address the user named, without its own hop-by-hop headers, keeping repeated headers', async () => {
    const proxy = await startGuardProxy({allowPrivate: true});
    try {
      const answer = await viaProxy(proxy, `http://127.0.0.1:${targetPort}/page?x=1`);
      expect(answer).toMatchObject({status: 200, body: 'hello GET /page?x=1 -'});
      expect(answer.headers['set-cookie']).toEqual(['a=1', 'b=2']);
      expect(await connectVia(proxy, `127.0.0.1:${targetPort}`)).toBe('HTTP/1.1 200 Connection Established');
      expect(proxy.refused).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('refuses link-local and metadata addresses in every spelling, over http and CONNECT, and records why', async () => {
    const proxy = await startGuardProxy({allowPrivate: true});
    try {
      for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://[::ffff:a9fe:a9fe]/', 'http://2852039166/']) {
        const answer = await viaProxy(proxy, url);
        expect(answer.status, url).toBe(403);
        expect(answer.headers[REFUSED_HEADER], url).toBe('1');
        expect(answer.body, url).toMatch(/link-local or cloud metadata address, which is never fetched/);
      }
      expect(await connectVia(proxy, '169.254.169.254:443')).toBe('HTTP/1.1 403 Forbidden');
      expect(proxy.refused.length).toBeGreaterThan(0);
      expect(proxy.refused.every((reason) => /link-local or cloud metadata/.test(reason))).toBe(true);
    } finally {
      await proxy.close();
    }
  });

  it('refuses private and loopback addresses for a public page, through a name as well as a literal', async () => {
    const proxy = await startGuardProxy({allowPrivate: false});
    try {
      expect((await viaProxy(proxy, `http://127.0.0.1:${targetPort}/`)).status).toBe(403);
      // `localhost` is a name: refused at connect time, on the address it resolved to.
      const byName = await viaProxy(proxy, `http://localhost:${targetPort}/`);
      expect(byName.status).toBe(403);
      expect(byName.body).toMatch(/refused localhost: it resolves to a private or loopback address/);
      expect(await connectVia(proxy, `localhost:${targetPort}`)).toBe('HTTP/1.1 403 Forbidden');
    } finally {
      await proxy.close();
    }
  });

  it('answers a host that cannot be reached with a marked 502 naming the cause, over http and CONNECT', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const proxy = await startGuardProxy({allowPrivate: true});
    try {
      const answer = await viaProxy(proxy, `http://127.0.0.1:${port}/`);
      expect(answer.status).toBe(502);
      expect(answer.headers[UNREACHABLE_HEADER]).toBe('ECONNREFUSED');
      expect(await connectVia(proxy, `127.0.0.1:${port}`)).toBe('HTTP/1.1 502 Bad Gateway');
      expect(proxy.unreachable).toEqual([`127.0.0.1:${port}: ECONNREFUSED`]);
    } finally {
      await proxy.close();
    }
  });

  it('answers garbage with 400, not a crash', async () => {
    const proxy = await startGuardProxy({allowPrivate: true});
    try {
      expect((await viaProxy(proxy, '/relative-only')).status).toBe(400);
      expect((await viaProxy(proxy, 'ftp://127.0.0.1/')).status).toBe(400);
      expect(await connectVia(proxy, 'not a host:::')).toMatch(/^HTTP\/1.1 400/);
    } finally {
      await proxy.close();
    }
  });
});
