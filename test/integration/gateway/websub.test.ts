// The gateway as a WebSub hub: a real subscriber on 127.0.0.1 subscribes through POST /api/websub
// on the kit's server, answers (or fails) the intent-verification GET, and receives the feed's
// bytes when it changes — signed with its secret, coalesced in bursts, retried, dropped on 410.
// render() is a stub returning fixed bytes per version: rendering is part C's, not the hub's.
import {createHmac} from 'node:crypto';
import {mkdtempSync, rmSync} from 'node:fs';
import http from 'node:http';
import type {AddressInfo} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import type {FastifyInstance} from 'fastify';
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi} from 'vitest';
import {createServer, listen} from '../../../servers/kit/index.js';
import {websubRoutes} from '../../../servers/gateway/routes/websub.js';
import {openGatewayStore} from '../../../source/gateway/store/index.js';
import type {RenderedFeed, Representation} from '../../../source/gateway/types.js';
import {saveSubscription} from '../../../source/gateway/store/subscription-rows.js';
import {createHub, HUB_MAX_CONCURRENT_EXCHANGES, type Hub, type HubOptions} from '../../../source/gateway/websub/index.js';
import type {Store} from '../../../source/storage/index.js';
import {PUBLIC_ADDRESS, testNetwork} from '../../helpers/test-network.js';

interface Seen {
  method: string;
  url: URL;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A WebSub subscriber: answers verification GETs by `verify` and deliveries by `receive`. */
interface Subscriber {
  url: string;
  seen: Seen[];
  verify: (query: URLSearchParams) => {status: number; body: string};
  receive: (count: number) => number;
  /** How long POSTs are held before the answer; the most held at once. */
  holdMs: number;
  mostAtOnce: number;
  gets(): Seen[];
  posts(): Seen[];
  close(): Promise<void>;
}

async function startSubscriber(): Promise<Subscriber> {
  const seen: Seen[] = [];
  let held = 0;
  const subscriber: Subscriber = {
    url: '',
    seen,
    verify: (query) => ({status: 200, body: query.get('hub.challenge') ?? ''}),
    receive: () => 204,
    holdMs: 0,
    mostAtOnce: 0,
    gets: () => seen.filter((item) => item.method === 'GET'),
    posts: () => seen.filter((item) => item.method === 'POST'),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const item = {method: request.method ?? '', url: new URL(request.url ?? '/', 'http://subscriber'), headers: request.headers, body: Buffer.concat(chunks)};
      seen.push(item);
      if (item.method === 'GET') {
        const answer = subscriber.verify(item.url.searchParams);
        response.writeHead(answer.status, {'content-type': 'text/plain'}).end(answer.body);
      } else {
        const status = subscriber.receive(subscriber.posts().length);
        held++;
        subscriber.mostAtOnce = Math.max(subscriber.mostAtOnce, held);
        setTimeout(() => {
          held--;
          response.writeHead(status).end();
        }, subscriber.holdMs);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  subscriber.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return subscriber;
}

let dir: string;
let store: Store;
let app: FastifyInstance;
let gateway: string;
let hub: Hub;
let subscriber: Subscriber;
let clock: number;
/** The content version of each feed: render() answers `<name> v<n> <representation>`. */
const versions = new Map<string, number>();
const feeds = new Set(['news', 'Chan_1']);

function render(name: string, representation: Representation): Promise<RenderedFeed | null> {
  if (!feeds.has(name)) return Promise.resolve(null);
  const version = versions.get(name) ?? 1;
  const contentType = representation === 'atom' ? 'application/atom+xml; charset=utf-8' : 'application/rss+xml; charset=utf-8';
  return Promise.resolve({
    body: Buffer.from(`${name} v${version} ${representation}`),
    contentType,
    etag: `"${version}-${representation}"`,
    lastModified: new Date(0).toUTCString(),
  });
}

function makeHub(options: Partial<HubOptions> = {}): Hub {
  return createHub({
    store,
    baseUrl: () => gateway,
    now: () => clock,
    render,
    topicExists: async (name) => feeds.has(name),
    allowPrivate: true,
    fetchTimeoutMs: 5_000,
    retryDelaysMs: [10, 10, 10],
    ...options,
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-websub-'));
  process.env.WORKBENCH_HOME = join(dir, 'home');
  process.env.XDG_CONFIG_HOME = join(dir, 'config');
  store = await openGatewayStore(join(dir, 'gateway.sqlite'));
  app = createServer({name: 'gateway'});
  // The plugin's hub is swapped per test through this indirection.
  await app.register(websubRoutes, {
    hub: {
      request: (form) => hub.request(form),
      publish: (name) => hub.publish(name),
      subscriptions: () => hub.subscriptions(),
      idle: () => hub.idle(),
      close: () => hub.close(),
    },
  });
  gateway = await listen(app, '127.0.0.1', 0);
});
afterAll(async () => {
  await app?.close();
  await store?.close();
  rmSync(dir, {recursive: true, force: true});
});
beforeEach(async () => {
  clock = Date.UTC(2030, 0, 1);
  versions.clear();
  await store.db('gateway_subscriptions').delete();
  subscriber = await startSubscriber();
  hub = makeHub();
});
afterEach(async () => {
  await hub.close();
  await subscriber.close();
});

interface Answer {
  status: number;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** POST /api/websub as a program would (no Origin). */
async function post(body: string, headers: Record<string, string> = {'content-type': 'application/x-www-form-urlencoded'}, path = '/api/websub'): Promise<Answer> {
  const response = await fetch(`${gateway}${path}`, {method: 'POST', headers, body});
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return {status: response.status, text, body: parsed};
}

function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

const topic = (name = 'news') => `${gateway}/${name}`;

async function subscribe(fields: Record<string, string> = {}): Promise<Answer> {
  return post(form({'hub.mode': 'subscribe', 'hub.topic': topic(), 'hub.callback': `${subscriber.url}/hook`, ...fields}));
}

async function subscribed(): Promise<void> {
  await vi.waitFor(async () => expect(await hub.subscriptions()).toHaveLength(1), {timeout: 10_000});
}

describe('subscribing (intent verification)', () => {
  it('answers 202, verifies with a GET carrying mode, topic, a 256-bit challenge and the lease, then stores the subscription', async () => {
    const answer = await subscribe({'hub.lease_seconds': '3600'});
    expect(answer.status).toBe(202);
    expect(answer.text).toBe('');
    await subscribed();
    const [get] = subscriber.gets();
    expect(get!.url.pathname).toBe('/hook');
    expect(get!.url.searchParams.get('hub.mode')).toBe('subscribe');
    expect(get!.url.searchParams.get('hub.topic')).toBe(topic());
    expect(get!.url.searchParams.get('hub.lease_seconds')).toBe('3600');
    expect(Buffer.from(get!.url.searchParams.get('hub.challenge')!, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(await hub.subscriptions()).toEqual([
      {
        topic: topic(),
        callback: `${subscriber.url}/hook`,
        leaseSeconds: 3600,
        expiresAt: new Date(clock + 3600_000).toISOString(),
        createdAt: new Date(clock).toISOString(),
        signed: false,
      },
    ]);
  });

  it('each verification has its own challenge; a callback’s own query is kept', async () => {
    await post(form({'hub.mode': 'subscribe', 'hub.topic': topic(), 'hub.callback': `${subscriber.url}/hook?id=7`}));
    await subscribed();
    await hub.request({'hub.mode': 'subscribe', 'hub.topic': topic(), 'hub.callback': `${subscriber.url}/hook?id=7`});
    await hub.idle();
    const [first, second] = subscriber.gets();
    expect(first!.url.searchParams.get('id')).toBe('7');
    expect(first!.url.searchParams.get('hub.challenge')).not.toBe(second!.url.searchParams.get('hub.challenge'));
  });

  it('leases are clamped (default 10 days, 60 s to 30 days)', async () => {
    const cases: [string | undefined, number][] = [
      [undefined, 864_000],
      ['0', 60],
      ['999999999', 2_592_000],
    ];
    for (const [lease, granted] of cases) {
      await store.db('gateway_subscriptions').delete();
      await hub.request({'hub.mode': 'subscribe', 'hub.topic': topic(), 'hub.callback': `${subscriber.url}/hook`, ...(lease === undefined ? {} : {'hub.lease_seconds': lease})});
      await hub.idle();
      expect(subscriber.gets().at(-1)!.url.searchParams.get('hub.lease_seconds')).toBe(String(granted));
      expect((await hub.subscriptions())[0]!.leaseSeconds).toBe(granted);
    }
  });

  it('a wrong echo, a 404 and a redirect do not subscribe', async () => {
    const answers = [
      {status: 200, body: 'not the challenge'},
      {status: 404, body: ''},
      {status: 302, body: ''},
    ];
    for (const answer of answers) {
      subscriber.verify = (query) => ({status: answer.status, body: answer.status === 200 ? answer.body : (query.get('hub.challenge') ?? '')});
      expect((await subscribe()).status).toBe(202);
      await hub.idle();
    }
    expect(subscriber.gets()).toHaveLength(3);
    expect(await hub.subscriptions()).toEqual([]);
  });

  it('re-subscribing renews the lease and replaces the secret', async () => {
    await subscribe({'hub.lease_seconds': '600'});
    await subscribed();
    clock += 300_000;
    await subscribe({'hub.lease_seconds': '600', 'hub.secret': 's3cret'});
    await vi.waitFor(async () => expect((await hub.subscriptions())[0]!.signed).toBe(true), {timeout: 10_000});
    const [row] = await hub.subscriptions();
    expect(row!.expiresAt).toBe(new Date(clock + 600_000).toISOString());
    expect(await hub.subscriptions()).toHaveLength(1);
  });

  it('unsubscribing is verified too, then removes the subscription', async () => {
    await subscribe();
    await subscribed();
    subscriber.verify = () => ({status: 200, body: 'no'});
    await post(form({'hub.mode': 'unsubscribe', 'hub.topic': topic(), 'hub.callback': `${subscriber.url}/hook`}));
    await hub.idle();
    // Someone else asked: the subscriber did not confirm, so it stays.
    expect(await hub.subscriptions()).toHaveLength(1);
    subscriber.verify = (query) => ({status: 200, body: query.get('hub.challenge') ?? ''});
    expect((await post(form({'hub.mode': 'unsubscribe', 'hub.topic': topic(), 'hub.callback': `${subscriber.url}/hook`}))).status).toBe(202);
    await vi.waitFor(async () => expect(await hub.subscriptions()).toEqual([]), {timeout: 10_000});
    const last = subscriber.gets().at(-1)!;
    expect(last.url.searchParams.get('hub.mode')).toBe('unsubscribe');
    expect(last.url.searchParams.has('hub.lease_seconds')).toBe(false);
  });
});

describe('content distribution', () => {
  it('POSTs the current RSS with Link and a verifiable X-Hub-Signature', async () => {
    await subscribe({'hub.secret': 'a subscriber secret'});
    await subscribed();
    versions.set('news', 2);
    hub.publish('news');
    await vi.waitFor(() => expect(subscriber.posts()).toHaveLength(1), {timeout: 10_000});
    const [delivery] = subscriber.posts();
    expect(delivery!.url.pathname).toBe('/hook');
    expect(delivery!.body.toString()).toBe('news v2 rss');
    expect(delivery!.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(delivery!.headers.link).toBe(`<${gateway}/api/websub>; rel="hub", <${topic()}>; rel="self"`);
    const expected = createHmac('sha256', 'a subscriber secret').update(delivery!.body).digest('hex');
    expect(delivery!.headers['x-hub-signature']).toBe(`sha256=${expected}`);
  });

  it('an Atom topic gets Atom; no secret, no signature; other feeds’ subscribers get nothing', async () => {
    await post(form({'hub.mode': 'subscribe', 'hub.topic': `${topic('Chan_1')}?format=atom`, 'hub.callback': `${subscriber.url}/atom`}));
    await post(form({'hub.mode': 'subscribe', 'hub.topic': topic(), 'hub.callback': `${subscriber.url}/rss`}));
    await vi.waitFor(async () => expect(await hub.subscriptions()).toHaveLength(2), {timeout: 10_000});
    hub.publish('Chan_1');
    await vi.waitFor(() => expect(subscriber.posts()).toHaveLength(1), {timeout: 10_000});
    await hub.idle();
    const [delivery] = subscriber.posts();
    expect(delivery!.url.pathname).toBe('/atom');
    expect(delivery!.body.toString()).toBe('Chan_1 v1 atom');
    expect(delivery!.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(delivery!.headers.link).toContain(`<${topic('Chan_1')}?format=atom>; rel="self"`);
    expect(delivery!.headers['x-hub-signature']).toBeUndefined();
    expect(subscriber.posts()).toHaveLength(1);
  });

  it('a burst of 10 publishes makes at most two deliveries, the last with the latest content', async () => {
    await subscribe();
    await subscribed();
    for (let version = 2; version <= 11; version++) {
      versions.set('news', version);
      hub.publish('news');
    }
    await vi.waitFor(() => expect(subscriber.posts().length).toBeGreaterThan(0), {timeout: 10_000});
    await hub.idle();
    expect(subscriber.posts().length).toBeLessThanOrEqual(2);
    expect(subscriber.posts().at(-1)!.body.toString()).toBe('news v11 rss');
  });

  it('publishes that arrive while the content is being rendered end with the latest content', async () => {
    await subscribe();
    await subscribed();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let first = true;
    const slowRender: HubOptions['render'] = async (name, representation) => {
      if (first) {
        first = false;
        await held;
      }
      return render(name, representation);
    };
    await hub.close();
    hub = makeHub({render: slowRender});
    hub.publish('news');
    await vi.waitFor(() => expect(first).toBe(false), {timeout: 10_000});
    for (let version = 2; version <= 5; version++) {
      versions.set('news', version);
      hub.publish('news');
    }
    release();
    await vi.waitFor(() => expect(subscriber.posts().at(-1)?.body.toString()).toBe('news v5 rss'), {timeout: 10_000});
    await hub.idle();
    expect(subscriber.posts().length).toBeLessThanOrEqual(2);
  });

  it('a feed with many subscribers is delivered to all, a bounded number at a time', async () => {
    for (let index = 0; index < 40; index++) {
      await saveSubscription(store.db, {topic: topic(), callback: `${subscriber.url}/hook/${index}`, secret: null, leaseSeconds: 600}, clock);
    }
    subscriber.holdMs = 20;
    hub.publish('news');
    await vi.waitFor(() => expect(subscriber.posts()).toHaveLength(40), {timeout: 10_000});
    await hub.idle();
    expect(new Set(subscriber.posts().map((item) => item.url.pathname)).size).toBe(40);
    expect(subscriber.mostAtOnce).toBeLessThanOrEqual(HUB_MAX_CONCURRENT_EXCHANGES);
  });

  it('a failed delivery is retried with backoff until it succeeds', async () => {
    await subscribe();
    await subscribed();
    subscriber.receive = (count) => (count <= 2 ? 503 : 200);
    hub.publish('news');
    await vi.waitFor(() => expect(subscriber.posts()).toHaveLength(3), {timeout: 10_000});
    await hub.idle();
    expect(subscriber.posts().map((item) => item.body.toString())).toEqual(['news v1 rss', 'news v1 rss', 'news v1 rss']);
    expect(await hub.subscriptions()).toHaveLength(1);
  });

  it('gives up after its retries and keeps the subscription', async () => {
    await subscribe();
    await subscribed();
    subscriber.receive = () => 500;
    hub.publish('news');
    await vi.waitFor(() => expect(subscriber.posts()).toHaveLength(4), {timeout: 10_000});
    await hub.idle();
    expect(subscriber.posts()).toHaveLength(4);
    expect(await hub.subscriptions()).toHaveLength(1);
  });

  it('410 Gone removes the subscription', async () => {
    await subscribe();
    await subscribed();
    subscriber.receive = () => 410;
    hub.publish('news');
    await vi.waitFor(async () => expect(await hub.subscriptions()).toEqual([]), {timeout: 10_000});
    await hub.idle();
    expect(subscriber.posts()).toHaveLength(1);
    hub.publish('news');
    await hub.idle();
    expect(subscriber.posts()).toHaveLength(1);
  });

  it('an expired lease is not delivered to and is purged', async () => {
    await subscribe({'hub.lease_seconds': '60'});
    await subscribed();
    clock += 61_000;
    hub.publish('news');
    await hub.idle();
    expect(subscriber.posts()).toEqual([]);
    expect(await store.db('gateway_subscriptions').count({n: '*'})).toEqual([{n: 0}]);
  });

  it('a feed that is gone (render answers null) sends nothing', async () => {
    await subscribe();
    await subscribed();
    feeds.delete('news');
    try {
      hub.publish('news');
      await hub.idle();
      expect(subscriber.posts()).toEqual([]);
    } finally {
      feeds.add('news');
    }
  });
});

describe('the address policy', () => {
  it('a callback on a link-local or metadata address is refused, whatever allowPrivate says', async () => {
    for (const callback of ['http://169.254.169.254/latest/meta-data/', 'http://[::ffff:169.254.169.254]/', 'http://[fe80::1]/hook']) {
      const answer = await subscribe({'hub.callback': callback});
      expect(answer.status, callback).toBe(400);
      expect(answer.body.error.code).toBe('invalid_argument');
      expect(answer.body.error.message).toContain('link-local');
    }
    expect(await hub.subscriptions()).toEqual([]);
  });

  it('with allowPrivate false, loopback and private callbacks are refused and nothing is sent', async () => {
    await hub.close();
    hub = makeHub({allowPrivate: false});
    for (const callback of [`${subscriber.url}/hook`, 'http://10.0.0.1/hook', 'http://localhost:1/hook']) {
      await expect(hub.request({'hub.mode': 'subscribe', 'hub.topic': topic(), 'hub.callback': callback}), callback).rejects.toMatchObject({code: 'invalid_argument'});
    }
    await hub.idle();
    expect(subscriber.seen).toEqual([]);
  });

  it('with allowPrivate false, a public name is served, and one that rebinds to loopback before the GET is not', async () => {
    await hub.close();
    // Every dial of the test network goes to 127.0.0.1, where the subscriber listens.
    const port = new URL(subscriber.url).port;
    const network = testNetwork({'hooks.example': PUBLIC_ADDRESS, 'rebind.example': [[PUBLIC_ADDRESS], ['127.0.0.1']]});
    hub = makeHub({allowPrivate: false, network});
    await hub.request({'hub.mode': 'subscribe', 'hub.topic': topic(), 'hub.callback': `http://hooks.example:${port}/ok`});
    await hub.request({'hub.mode': 'subscribe', 'hub.topic': topic(), 'hub.callback': `http://rebind.example:${port}/rebind`});
    await hub.idle();
    expect(subscriber.gets().map((item) => item.url.pathname)).toEqual(['/ok']);
    expect((await hub.subscriptions()).map((row) => row.callback)).toEqual([`http://hooks.example:${port}/ok`]);
  });
});

describe('POST /api/websub refuses garbage', () => {
  const valid = () => ({'hub.mode': 'subscribe', 'hub.topic': topic(), 'hub.callback': `${subscriber.url}/hook`});

  it('answers 400 invalid_argument for each malformed field', async () => {
    const cases: [string, Record<string, string>, string][] = [
      ['missing mode', {'hub.mode': ''}, 'hub.mode'],
      ['unknown mode', {'hub.mode': 'publish'}, 'hub.mode'],
      ['missing topic', {'hub.topic': ''}, 'hub.topic'],
      ['topic not a URL', {'hub.topic': 'news'}, 'hub.topic'],
      ['foreign topic', {'hub.topic': 'http://elsewhere.example/news'}, 'hub.topic'],
      ['topic with another query', {'hub.topic': `${topic()}?format=json`}, 'hub.topic'],
      ['topic of a reserved path', {'hub.topic': `${gateway}/api`}, 'hub.topic'],
      ['topic nested', {'hub.topic': `${gateway}/news/items`}, 'hub.topic'],
      ['unknown feed', {'hub.topic': topic('nope')}, 'not a feed'],
      ['missing callback', {'hub.callback': ''}, 'hub.callback'],
      ['callback not a URL', {'hub.callback': 'not a url'}, 'hub.callback'],
      ['callback not http', {'hub.callback': 'ftp://example.org/hook'}, 'hub.callback'],
      ['callback over 2 KB', {'hub.callback': `${subscriber.url}/${'a'.repeat(2048)}`}, 'hub.callback'],
      ['lease abc', {'hub.lease_seconds': 'abc'}, 'hub.lease_seconds'],
      ['lease -5', {'hub.lease_seconds': '-5'}, 'hub.lease_seconds'],
      ['lease 1.5', {'hub.lease_seconds': '1.5'}, 'hub.lease_seconds'],
      ['secret of 200 bytes', {'hub.secret': 's'.repeat(200)}, 'hub.secret'],
      ['empty secret', {'hub.secret': ''}, 'hub.secret'],
    ];
    for (const [what, fields, mentions] of cases) {
      const answer = await post(form({...valid(), ...fields}));
      expect(answer.status, `${what}: ${answer.text}`).toBe(400);
      expect(answer.body.error.code, what).toBe('invalid_argument');
      expect(answer.body.error.message, what).toContain(mentions);
    }
    // A secret of 199 bytes is fine.
    expect((await post(form({...valid(), 'hub.secret': 's'.repeat(199)}))).status).toBe(202);
    await hub.idle();
    expect(subscriber.gets()).toHaveLength(1);
  });

  it('answers 400 invalid_body for JSON, an empty body, no content type and a field given twice', async () => {
    const json = await post(JSON.stringify(valid()), {'content-type': 'application/json'});
    expect(json.status).toBe(400);
    expect(json.body.error).toEqual({code: 'invalid_body', message: expect.stringContaining('application/x-www-form-urlencoded')});
    expect((await post('{"broken', {'content-type': 'application/json'})).status).toBe(400);
    const none = await post('');
    expect(none.status).toBe(400);
    expect(none.body.error).toEqual({code: 'invalid_argument', message: expect.stringContaining('hub.mode is missing')});
    const untyped = await fetch(`${gateway}/api/websub`, {method: 'POST'});
    expect(untyped.status).toBe(400);
    expect(((await untyped.json()) as {error: {code: string}}).error.code).toBe('invalid_body');
    const twice = await post(`${form(valid())}&hub.topic=${encodeURIComponent(topic('Chan_1'))}`);
    expect(twice.status).toBe(400);
    expect(twice.body.error.code).toBe('invalid_body');
    await hub.idle();
    expect(subscriber.seen).toEqual([]);
  });

  it('refuses a body over 8 KB (413), a query string (400) and a form posted from another site (403)', async () => {
    const big = await post(form({...valid(), pad: 'x'.repeat(9000)}));
    expect(big.status).toBe(413);
    expect(big.body.error).toEqual({code: 'payload_too_large', message: 'a WebSub form is at most 8 KB'});
    const query = await post(form(valid()), undefined, '/api/websub?x=1');
    expect(query.status).toBe(400);
    const crossSite = await post(form(valid()), {'content-type': 'application/x-www-form-urlencoded', origin: 'http://evil.example'});
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.error.code).toBe('cross_site_refused');
    await hub.idle();
    expect(subscriber.seen).toEqual([]);
  });

  it('is public: a subscriber reaching the gateway by another name is served', async () => {
    const answer = await new Promise<number>((resolve, reject) => {
      const body = form(valid());
      const request = http.request(
        `${gateway}/api/websub`,
        {method: 'POST', headers: {host: 'feeds.example.org', 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body))}},
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
    expect(answer).toBe(202);
    await subscribed();
  });
});
