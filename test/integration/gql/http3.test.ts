// HTTP/3: GqlService:Http3:Enabled serves the same endpoint over QUIC through Caddy, proven with
// headless Chromium forced onto QUIC; Alt-Svc on the plain answers; Caddy missing or its port
// taken: the server says why and serves HTTP/1.1 only.
import {execFile, execFileSync} from 'node:child_process';
import {promisify} from 'node:util';
import {existsSync, mkdtempSync, rmSync} from 'node:fs';
import {createServer as createTcpServer, type AddressInfo} from 'node:net';
import {createSocket} from 'node:dgram';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest';
import {startGraphqlServer, type GraphqlServer} from '../../../servers/graphql/index.js';
import {chromiumPath} from '../../../source/browser/chromium.js';
import {openGqlService} from '../../../source/gql/service.js';
import {requirePackage} from '../../helpers/system-package.js';
import {createArtistDatabase, gqlTestSettings} from '../../helpers/gql-test-service.js';

// Caddy serves the front, with a certificate openssl makes; curl and Chromium read it.
const hasFront = !requirePackage('caddy', {for: 'the HTTP/3 tests'}) && !requirePackage('openssl', {for: 'the HTTP/3 tests'});
const hasCurl = !requirePackage('curl', {for: 'the HTTP/3 front read over HTTP/1.1'});
const hasChromium = !requirePackage('chromium', {for: 'the HTTP/3 test'});

/** A port free on both TCP and UDP (QUIC), found by binding both. */
async function freePort(): Promise<number> {
  for (;;) {
    const tcp = createTcpServer();
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    const port = (tcp.address() as AddressInfo).port;
    const udp = createSocket('udp4');
    const ok = await new Promise<boolean>((resolve) => {
      udp.once('error', () => resolve(false));
      udp.bind(port, '127.0.0.1', () => resolve(true));
    });
    udp.close();
    await new Promise((resolve) => tcp.close(resolve));
    if (ok) return port;
  }
}

let dir: string;
let connectionString: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-gql-h3-'));
  vi.stubEnv('WORKBENCH_HOME', join(dir, 'home'));
  connectionString = await createArtistDatabase(join(dir, 'db.sqlite'));
});

afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(dir, {recursive: true, force: true});
});

async function start(port: number, env: Record<string, string> = {}): Promise<{server: GraphqlServer; warnings: string[]}> {
  const warnings: string[] = [];
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  const service = await openGqlService(gqlTestSettings({disableAuth: true, connectionString, http3: {enabled: true, httpsPort: port}}));
  const server = await startGraphqlServer({service, port: 0, playground: {js: '', css: ''}, warn: (line) => warnings.push(line)});
  return {server, warnings};
}

describe.skipIf(!hasFront)('HTTP/3 through Caddy', () => {
  let server: GraphqlServer;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    server = (await start(port)).server;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it.skipIf(!hasCurl)('starts Caddy with a local certificate and advertises HTTP/3 on the plain answers', async () => {
    expect(server.http3?.url).toBe(`https://localhost:${port}`);
    expect(server.http3?.spkiHash).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    const plain = await fetch(`${server.url}/_workbench/health`);
    expect(plain.headers.get('alt-svc')).toBe(`h3=":${port}"; ma=86400`);
    // Over HTTPS (HTTP/1.1 here) the front answers too, and says where HTTP/3 is.
    // Not execFileSync: the answer comes from this process's own server, which must keep running.
    const {stdout: out} = await promisify(execFile)('curl', ['-sk', '-D', '-', '--http1.1', `https://localhost:${port}/graphql?query=%7B__typename%7D`], {encoding: 'utf8'});
    expect(out).toMatch(/alt-svc: h3=":\d+"/i);
    expect(out).toContain('{"data":{"__typename":"Query"}}');
    const key = join(dir, 'home', 'graphql-h3', 'tls', 'localhost.key');
    expect(existsSync(key)).toBe(true);
    expect(execFileSync('stat', ['-c', '%a', key], {encoding: 'utf8'}).trim()).toBe('600');
  });

  it.skipIf(!hasChromium)(
    'Chromium forced onto QUIC gets the answer over h3, at https://localhost and https://127.0.0.1 as the README shows',
    async () => {
      const {chromium} = await import('playwright-core');
      // No resolver rule: Chromium resolves localhost itself (to ::1 first), as a user's does.
      const browser = await chromium.launch({
        executablePath: chromiumPath(),
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          `--origin-to-force-quic-on=localhost:${port},127.0.0.1:${port}`,
          `--ignore-certificate-errors-spki-list=${server.http3!.spkiHash}`,
        ],
      });
      try {
        for (const host of ['localhost', '127.0.0.1']) {
          const page = await browser.newPage();
          await page.goto(`https://${host}:${port}/_workbench/health`);
          const navigation = await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).nextHopProtocol);
          expect(navigation, host).toBe('h3');
          const answer = await page.evaluate(async () => {
            const response = await fetch('/graphql', {
              method: 'POST',
              headers: {'content-type': 'application/json'},
              body: JSON.stringify({query: '{ artist(limit: 1, sort: [id_asc]) { data { name } } }'}),
            });
            return {status: response.status, body: await response.json()};
          });
          expect(answer, host).toEqual({status: 200, body: {data: {artist: {data: [{name: 'AC/DC'}]}}}});
          const protocols = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => (entry as PerformanceResourceTiming).nextHopProtocol));
          expect(protocols.length).toBeGreaterThan(0);
          expect(
            protocols.every((protocol) => protocol === 'h3'),
            `${host}: ${protocols.join(',')}`,
          ).toBe(true);
          await page.close();
        }
      } finally {
        await browser.close();
      }
    },
    60_000,
  );
});

describe('HTTP/3 unavailable', () => {
  it('without Caddy the server says how to install it and serves HTTP/1.1', async () => {
    const {server, warnings} = await start(await freePort(), {WORKBENCH_CADDY: join(dir, 'no-caddy-here')});
    try {
      expect(server.http3).toBeUndefined();
      expect(warnings.join('\n')).toMatch(/Caddy is not installed \(apt-get install caddy/);
      const plain = await fetch(`${server.url}/_workbench/health`);
      expect(plain.status).toBe(200);
      expect(plain.headers.get('alt-svc')).toBeNull();
    } finally {
      await server.close();
      vi.unstubAllEnvs();
      vi.stubEnv('WORKBENCH_HOME', join(dir, 'home'));
    }
  });

  it.skipIf(!hasFront)('with its port taken Caddy’s own reason is said, in one line, and HTTP/1.1 goes on', async () => {
    const taken = createTcpServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const {server, warnings} = await start(port);
      try {
        expect(server.http3).toBeUndefined();
        expect(warnings.join('\n')).toMatch(/HTTP\/3 is enabled but could not start \(.*(address already in use|bind)/);
        expect(warnings.every((line) => !line.includes('\n'))).toBe(true);
        expect((await fetch(`${server.url}/_workbench/health`)).status).toBe(200);
      } finally {
        await server.close();
      }
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
