// Proxied origin feeds against real origins on 127.0.0.1: conditional polls, stale-on-error for
// every way an origin fails, Retry-After, coalesced refreshes, and a restart with the origin down.
import {mkdtempSync, rmSync} from 'node:fs';
import net from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {fetchFeed} from '../../../source/feeds/fetcher/index.js';
import {createOriginPoller, type OriginPoller, type OriginPollerOptions} from '../../../source/gateway/origins/index.js';
import {openGatewayStore} from '../../../source/gateway/store/index.js';
import {findOrigin} from '../../../source/gateway/store/origin-rows.js';
import type {ProxiedFeedConfig} from '../../../source/gateway/types.js';
import type {Store} from '../../../source/storage/index.js';
import {closedPort} from '../../helpers/test-network.js';
import {testDatabases} from '../../helpers/test-databases.js';
import {atom, rss, startFeedOrigin, type Entry, type FeedOrigin} from './origin-server.js';

const BASE = 'http://127.0.0.1:7701';
const T0 = Date.parse('2024-06-01T12:00:00Z');
const ENTRIES: Entry[] = [
  {guid: 'one', title: 'First', link: '/posts/1', description: '<p>one</p>', date: '2024-05-01T00:00:00Z'},
  {guid: 'two', title: 'Second', link: 'http://elsewhere.test/2', description: '<p>two</p>', date: '2024-05-02T00:00:00Z'},
];

let dir: string;
let store: Store;
let clock: number;
const origins: FeedOrigin[] = [];
const pollers: OriginPoller[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-gateway-origins-'));
  vi.stubEnv('WORKBENCH_HOME', join(dir, 'home'));
  vi.stubEnv('XDG_CONFIG_HOME', join(dir, 'config'));
  store = await openGatewayStore(join(dir, 'gateway.sqlite'));
  clock = T0;
});
afterEach(async () => {
  for (const poller of pollers.splice(0)) await poller.stop();
  for (const origin of origins.splice(0)) await origin.close();
  await store.close();
  vi.unstubAllEnvs();
  rmSync(dir, {recursive: true, force: true});
});

async function origin(...args: Parameters<typeof startFeedOrigin>): Promise<FeedOrigin> {
  const started = await startFeedOrigin(...args);
  origins.push(started);
  return started;
}

const feedOf = (server: {url: string} | string, extra: Partial<ProxiedFeedConfig> = {}): ProxiedFeedConfig => ({
  name: 'news',
  origin: typeof server === 'string' ? server : server.url,
  pollIntervalMs: 600_000,
  ...extra,
});

function poller(feeds: ProxiedFeedConfig[], extra: Partial<OriginPollerOptions> = {}) {
  const changes: string[] = [];
  const errors: [string, unknown][] = [];
  const created = createOriginPoller({
    store,
    config: {feeds},
    baseUrl: () => BASE,
    now: () => clock,
    timeoutMs: 2000,
    onChange: (name) => changes.push(name),
    onError: (name, error) => errors.push([name, error]),
    ...extra,
  });
  pollers.push(created);
  return {poller: created, changes, errors};
}

describe('polling an origin', () => {
  it('takes the first copy: items with absolute links, dates, content; status from the store', async () => {
    const server = await origin({kind: 'feed', body: rss(ENTRIES)});
    const {poller: gateway, changes} = poller([feedOf(server)]);
    expect(await gateway.document('news')).toBeNull();
    expect(await gateway.refresh('news')).toEqual({id: 'news', status: 'ok'});
    expect(changes).toEqual(['news']);

    const document = (await gateway.document('news'))!;
    expect(document).toMatchObject({
      kind: 'proxied',
      name: 'news',
      title: 'Origin news',
      description: 'What the origin says',
      siteUrl: `http://127.0.0.1:${server.port}/`,
      stale: false,
      maxAgeSeconds: 600,
      updatedAt: T0,
    });
    expect(document.version).toMatch(/^[0-9a-f]{64}$/);
    expect(document.items).toEqual([
      {id: 'two', title: 'Second', link: 'http://elsewhere.test/2', description: '<p>two</p>', author: null, published: Date.parse('2024-05-02T00:00:00Z')},
      {id: 'one', title: 'First', link: `http://127.0.0.1:${server.port}/posts/1`, description: '<p>one</p>', author: null, published: Date.parse('2024-05-01T00:00:00Z')},
    ]);
    expect(await gateway.status('news')).toEqual({
      name: 'news',
      origin: server.url,
      title: 'Origin news',
      pollIntervalSeconds: 600,
      itemCount: 2,
      stale: false,
      lastSuccessAt: new Date(T0).toISOString(),
      lastFailureAt: null,
      lastError: null,
      nextPollAt: new Date(T0 + 600_000).toISOString(),
      feedUrl: `${BASE}/news`,
    });
    expect(server.requests).toEqual([{ifNoneMatch: null, ifModifiedSince: null}]);
  });

  it('sends the validators back: a 304 is not-modified, the copy and its dates stay, no change is announced', async () => {
    const server = await origin({kind: 'feed', body: rss(ENTRIES)});
    const {poller: gateway, changes} = poller([feedOf(server)]);
    await gateway.refresh('news');
    const first = (await gateway.document('news'))!;
    clock += 1000;
    expect(await gateway.refresh('news')).toEqual({id: 'news', status: 'not-modified'});
    expect(server.requests[1]).toEqual({ifNoneMatch: '"v1"', ifModifiedSince: 'Mon, 01 Jan 2024 00:00:00 GMT'});
    expect(changes).toEqual(['news']);
    const second = (await gateway.document('news'))!;
    expect(second.version).toBe(first.version);
    expect(second.updatedAt).toBe(T0);
    expect((await gateway.status('news')).lastSuccessAt).toBe(new Date(T0 + 1000).toISOString());
  });

  it('a rebuilt feed with the same items (new build date, no validators) is not-modified; changed items are a new version', async () => {
    const server = await origin({kind: 'feed', body: rss(ENTRIES), etag: null, lastModified: null});
    const {poller: gateway, changes} = poller([feedOf(server)]);
    await gateway.refresh('news');
    const first = (await gateway.document('news'))!;
    server.mode = {kind: 'feed', body: rss(ENTRIES, {buildDate: 'Tue, 02 Jan 2024 00:00:00 GMT'}), etag: null, lastModified: null};
    clock += 1000;
    expect(await gateway.refresh('news')).toEqual({id: 'news', status: 'not-modified'});
    expect((await gateway.document('news'))!.version).toBe(first.version);

    server.mode = {kind: 'feed', body: rss([{guid: 'three', title: 'Third', date: '2024-05-03T00:00:00Z'}, ...ENTRIES]), etag: '"v2"'};
    clock += 1000;
    expect(await gateway.refresh('news')).toEqual({id: 'news', status: 'ok'});
    const changed = (await gateway.document('news'))!;
    expect(changed.version).not.toBe(first.version);
    expect(changed.updatedAt).toBe(T0 + 2000);
    expect(changed.items.map((item) => item.id)).toEqual(['three', 'two', 'one']);
    expect(changes).toEqual(['news', 'news']);
    // The new validators go back next time.
    await gateway.refresh('news');
    expect(server.requests.at(-1)!.ifNoneMatch).toBe('"v2"');
  });

  it('dates an undated item when first seen and keeps that date; identity falls back to the link', async () => {
    const server = await origin({kind: 'feed', body: rss([{title: 'Undated', link: '/u'}])});
    const {poller: gateway} = poller([feedOf(server)]);
    await gateway.refresh('news');
    const link = `http://127.0.0.1:${server.port}/u`;
    expect((await gateway.document('news'))!.items).toEqual([{id: link, title: 'Undated', link, description: null, author: null, published: T0}]);
    server.mode = {
      kind: 'feed',
      body: rss([
        {title: 'Undated', link: '/u'},
        {title: 'Other', link: '/o'},
      ]),
      etag: '"v2"',
    };
    clock += 60_000;
    await gateway.refresh('news');
    const items = (await gateway.document('news'))!.items;
    expect(items.find((item) => item.title === 'Undated')!.published).toBe(T0);
    expect(items.find((item) => item.title === 'Other')!.published).toBe(T0 + 60_000);
  });

  it('reads an Atom origin, and serves the configured title in place of the origin’s', async () => {
    const server = await origin(
      {kind: 'feed', body: atom([{guid: 'urn:a', title: 'A', link: 'a.html', description: '<b>bold</b>', date: '2024-05-05T00:00:00Z'}]), contentType: 'application/atom+xml'},
      '/x/atom.xml',
    );
    const {poller: gateway} = poller([feedOf(server, {title: 'My title'})]);
    await gateway.refresh('news');
    const document = (await gateway.document('news'))!;
    expect(document.title).toBe('My title');
    expect(document.siteUrl).toBe(`http://127.0.0.1:${server.port}/site/`);
    // The relative link is absolute (the parser's base: the document's address, or the feed's site link).
    expect(document.items).toEqual([
      {
        id: 'urn:a',
        title: 'A',
        link: expect.stringMatching(new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/.*a\\.html$`)),
        description: '<b>bold</b>',
        author: null,
        published: Date.parse('2024-05-05T00:00:00Z'),
      },
    ]);
    expect((await gateway.status('news')).title).toBe('My title');
  });
});

describe('stale-on-error', () => {
  /** A poller with a good first copy of ENTRIES; the test then breaks the origin. */
  async function withCopy() {
    const server = await origin({kind: 'feed', body: rss(ENTRIES)});
    const made = poller([feedOf(server)]);
    await made.poller.refresh('news');
    const copy = (await made.poller.document('news'))!;
    clock += 1000;
    return {server, ...made, copy};
  }

  async function expectCopyServedStale(gateway: OriginPoller, copy: Awaited<ReturnType<typeof withCopy>>['copy'], lastError: RegExp) {
    const document = (await gateway.document('news'))!;
    expect(document).toEqual({...copy, stale: true});
    const status = await gateway.status('news');
    expect(status).toMatchObject({stale: true, itemCount: 2, lastSuccessAt: new Date(T0).toISOString(), lastFailureAt: new Date(clock).toISOString()});
    expect(status.lastError).toMatch(lastError);
    expect(status.lastError).not.toMatch(/[\x00-\x1f\x7f]/);
    // Nothing of the failure became content.
    const row = (await findOrigin(store.db, 'news'))!;
    expect(row.items).toEqual(copy.items);
    expect(row.version).toBe(copy.version);
  }

  it('an origin that is down: feed_unreachable, the copy served stale', async () => {
    const {server, poller: gateway, copy, changes} = await withCopy();
    await server.close();
    await expect(gateway.refresh('news')).rejects.toMatchObject({code: 'feed_unreachable', message: expect.stringMatching(/^feed "news": /)});
    await expectCopyServedStale(gateway, copy, /127\.0\.0\.1/);
    expect(changes).toEqual(['news']);
  });

  it('a slow origin times out: feed_unreachable, the copy served stale', async () => {
    const {server, copy} = await withCopy();
    const {poller: gateway} = poller([feedOf(server)], {timeoutMs: 300});
    server.mode = {kind: 'hang'};
    await expect(gateway.refresh('news')).rejects.toMatchObject({code: 'feed_unreachable', details: expect.objectContaining({reason: 'timeout'})});
    await expectCopyServedStale(gateway, copy, /time/i);
  });

  it.each([
    ['garbage bytes', {kind: 'body', body: Buffer.from([0x00, 0xff, 0x13, 0x37, 0x1b, 0x5b, 0x32, 0x4a]), contentType: 'application/octet-stream'}],
    ['an HTML page', {kind: 'body', body: '<!doctype html><html><head><title>Down for maintenance</title></head><body><h1>Sorry</h1></body></html>', contentType: 'text/html'}],
    ['an empty body', {kind: 'body', body: '', contentType: 'application/rss+xml'}],
    ['JSON that is no feed', {kind: 'body', body: '{"error": "rate limited"}', contentType: 'application/json'}],
  ] as const)('%s: not_a_feed, nothing of it becomes an item, the copy served stale', async (_what, mode) => {
    const {server, poller: gateway, copy} = await withCopy();
    server.mode = mode;
    await expect(gateway.refresh('news')).rejects.toMatchObject({code: 'not_a_feed'});
    await expectCopyServedStale(gateway, copy, /not a feed/);
  });

  it('an HTTP 500: feed_unreachable; the next good poll (a 304 with the kept validators) clears the mark', async () => {
    const {server, poller: gateway, copy, changes} = await withCopy();
    server.mode = {kind: 'status', status: 500};
    await expect(gateway.refresh('news')).rejects.toMatchObject({code: 'feed_unreachable', message: expect.stringContaining('HTTP 500')});
    await expectCopyServedStale(gateway, copy, /^HTTP 500/);

    server.mode = {kind: 'feed', body: rss(ENTRIES)};
    clock += 1000;
    expect(await gateway.refresh('news')).toEqual({id: 'news', status: 'not-modified'});
    expect(server.requests.at(-1)!.ifNoneMatch).toBe('"v1"');
    expect(await gateway.document('news')).toEqual(copy);
    expect(await gateway.status('news')).toMatchObject({
      stale: false,
      lastSuccessAt: new Date(clock).toISOString(),
      lastFailureAt: new Date(clock - 1000).toISOString(),
      lastError: expect.stringMatching(/^HTTP 500/),
    });
    expect(changes).toEqual(['news']);
  });

  it('an error text from the origin is kept as one printable line', async () => {
    // A raw server: node:http would refuse to send this status text.
    const raw = net.createServer((socket) => {
      socket.once('data', () => socket.end('HTTP/1.1 500 Oops\x1b]0;pwned\x07\x1b[2J\u202eevil\r\ncontent-length: 0\r\nconnection: close\r\n\r\n'));
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    try {
      const {poller: gateway} = poller([feedOf(`http://127.0.0.1:${(raw.address() as net.AddressInfo).port}/feed.xml`)]);
      const error = await gateway.refresh('news').then(
        () => null,
        (failure: Error) => failure,
      );
      expect(error).toMatchObject({code: 'feed_unreachable'});
      const {lastError} = await gateway.status('news');
      for (const text of [error!.message, lastError!]) {
        expect(text).toContain('500');
        expect(text).not.toMatch(/[\x00-\x1f\x7f-\x9f\u202a-\u202e]/);
      }
    } finally {
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  it('a failure before any good copy: nothing is served, the status says why', async () => {
    const server = await origin({kind: 'status', status: 404});
    const {poller: gateway} = poller([feedOf(server)]);
    await expect(gateway.refresh('news')).rejects.toMatchObject({code: 'feed_unreachable'});
    expect(await gateway.document('news')).toBeNull();
    expect(await gateway.status('news')).toMatchObject({stale: true, itemCount: 0, lastSuccessAt: null, lastError: expect.stringMatching(/^HTTP 404/)});
  });

  it('Retry-After: no request before it; a refresh meanwhile is skipped and says until when', async () => {
    const {server, poller: gateway, copy} = await withCopy();
    server.mode = {kind: 'status', status: 503, retryAfter: '120'};
    await expect(gateway.refresh('news')).rejects.toMatchObject({code: 'feed_unreachable', message: expect.stringContaining('retry after 120 s')});
    const until = new Date(clock + 120_000).toISOString();
    // The next poll waits for the longer of the interval and the origin's wish.
    expect((await gateway.status('news')).nextPollAt).toBe(new Date(clock + 600_000).toISOString());
    const hits = server.requests.length;
    server.mode = {kind: 'feed', body: rss(ENTRIES)};
    clock += 60_000;
    const skipped = await gateway.refresh('news');
    expect(skipped).toEqual({id: 'news', status: 'skipped', message: expect.stringContaining(until)});
    expect(server.requests).toHaveLength(hits);
    expect(await gateway.document('news')).toEqual({...copy, stale: true});

    clock += 61_000;
    expect(await gateway.refresh('news')).toEqual({id: 'news', status: 'not-modified'});
    expect(server.requests).toHaveLength(hits + 1);
    expect((await gateway.document('news'))!.stale).toBe(false);
  });
});

describe('refresh', () => {
  it('coalesces concurrent refreshes of one feed into one origin fetch', async () => {
    const server = await origin({kind: 'hold', then: {kind: 'feed', body: rss(ENTRIES)}});
    const {poller: gateway, changes} = poller([feedOf(server)]);
    const refreshes = Array.from({length: 8}, () => gateway.refresh('news'));
    await vi.waitFor(() => expect(server.requests).toHaveLength(1), {timeout: 10_000});
    server.release();
    expect(await Promise.all(refreshes)).toEqual(Array.from({length: 8}, () => ({id: 'news', status: 'ok'})));
    expect(server.requests).toHaveLength(1);
    expect(changes).toEqual(['news']);
  });

  it('concurrent refreshes of a failing origin all reject with the one failure', async () => {
    const server = await origin({kind: 'hold', then: {kind: 'status', status: 502}});
    const {poller: gateway} = poller([feedOf(server)]);
    const refreshes = Array.from({length: 4}, () => gateway.refresh('news'));
    await vi.waitFor(() => expect(server.requests).toHaveLength(1), {timeout: 10_000});
    server.release();
    const results = await Promise.allSettled(refreshes);
    expect(results.every((result) => result.status === 'rejected' && (result.reason as {code: string}).code === 'feed_unreachable')).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    ['unknown', 'unknown'],
    ['empty', ''],
    ['a path', '../news'],
    ['another case', 'NEWS'],
    ['reserved', 'api'],
    ['undefined', undefined],
    ['a number', 42],
    ['10,000 characters', 'x'.repeat(10_000)],
  ])('answers not_found for a name (%s), and reads nothing for it', async (_what, name) => {
    const {poller: gateway} = poller([feedOf('http://127.0.0.1:1/feed.xml')]);
    await expect(gateway.refresh(name as string)).rejects.toMatchObject({code: 'not_found'});
    await expect(gateway.status(name as string)).rejects.toMatchObject({code: 'not_found'});
    expect(await gateway.document(name as string)).toBeNull();
  });

  it('counts requests through an injected fetch', async () => {
    const server = await origin({kind: 'feed', body: rss(ENTRIES)});
    let calls = 0;
    const {poller: gateway} = poller([feedOf(server)], {fetch: (url, options) => (calls++, fetchFeed(url, options))});
    await gateway.refresh('news');
    await gateway.status('news');
    await gateway.list();
    await gateway.document('news');
    expect(calls).toBe(1);
  });
});

describe('the schedule and the config', () => {
  it('start() polls a feed never polled, then waits for its interval; status and list never contact the origin', async () => {
    const server = await origin({kind: 'feed', body: rss(ENTRIES)});
    const {poller: gateway, changes} = poller([feedOf(server)]);
    expect(await gateway.list()).toEqual([expect.objectContaining({name: 'news', lastSuccessAt: null, nextPollAt: null, itemCount: 0})]);
    expect(server.requests).toHaveLength(0);
    gateway.start();
    await vi.waitFor(() => expect(changes).toEqual(['news']), {timeout: 10_000});
    expect((await gateway.document('news'))!.items).toHaveLength(2);
    await gateway.stop();
    expect(server.requests).toHaveLength(1);
  });

  it('start() polls every configured feed, several on one host', async () => {
    const server = await origin({kind: 'feed', body: rss(ENTRIES)});
    const names = ['a', 'b', 'c', 'd', 'e'];
    const {poller: gateway, changes} = poller(names.map((name) => feedOf(`${server.url}?${name}`, {name})));
    gateway.start();
    await vi.waitFor(() => expect([...changes].sort()).toEqual(names), {timeout: 10_000});
    expect((await gateway.list()).every((status) => status.itemCount === 2 && !status.stale)).toBe(true);
    expect(server.requests).toHaveLength(5);
  });

  it('a background poll that fails is reported to onError and marks the copy stale', async () => {
    const server = await origin({kind: 'feed', body: rss(ENTRIES)});
    const first = poller([feedOf(server)]);
    await first.poller.refresh('news');
    server.mode = {kind: 'status', status: 500};
    clock += 600_000;
    const {poller: gateway, errors} = poller([feedOf(server)]);
    gateway.start();
    await vi.waitFor(() => expect(errors).toHaveLength(1), {timeout: 10_000});
    expect(errors[0]![0]).toBe('news');
    expect(errors[0]![1]).toMatchObject({code: 'feed_unreachable'});
    expect((await gateway.document('news'))!.stale).toBe(true);
  });

  it('survives a restart with the origin down: the stored copy is served at once, then marked stale when the due poll fails', async () => {
    const server = await origin({kind: 'feed', body: rss(ENTRIES)});
    const feeds = [feedOf(server)];
    const first = poller(feeds);
    await first.poller.refresh('news');
    const copy = (await first.poller.document('news'))!;
    await first.poller.stop();
    await server.close();
    await store.close();

    store = await openGatewayStore(join(dir, 'gateway.sqlite'));
    clock += 600_000;
    const restarted = poller(feeds);
    // Served from the store before any poll.
    expect(await restarted.poller.document('news')).toEqual(copy);
    restarted.poller.start();
    await vi.waitFor(() => expect(restarted.errors).toHaveLength(1), {timeout: 10_000});
    expect(await restarted.poller.document('news')).toEqual({...copy, stale: true});
    await restarted.poller.stop();

    // A third start serves the copy marked stale, as the last attempt failed.
    const again = poller(feeds);
    expect(await again.poller.document('news')).toEqual({...copy, stale: true});
    expect(await again.poller.status('news')).toMatchObject({stale: true, itemCount: 2, lastError: expect.any(String)});
  });

  it('a feed the config drops keeps its row but is not served; one whose origin changed starts fresh', async () => {
    const server = await origin({kind: 'feed', body: rss(ENTRIES)});
    const other = await origin({kind: 'feed', body: rss([{guid: 'x', title: 'Elsewhere'}], {title: 'Other origin'})}, '/other.xml');
    await poller([feedOf(server)]).poller.refresh('news');

    const dropped = poller([feedOf(other, {name: 'else'})]).poller;
    expect(await dropped.document('news')).toBeNull();
    await expect(dropped.status('news')).rejects.toMatchObject({code: 'not_found'});
    expect((await dropped.list()).map((status) => status.name)).toEqual(['else']);
    expect((await findOrigin(store.db, 'news'))!.items).toHaveLength(2);

    const moved = poller([feedOf(other)]).poller;
    expect(await moved.document('news')).toBeNull();
    expect(await moved.status('news')).toMatchObject({origin: other.url, itemCount: 0, lastSuccessAt: null});
    expect(await moved.refresh('news')).toEqual({id: 'news', status: 'ok'});
    expect(other.requests).toEqual([{ifNoneMatch: null, ifModifiedSince: null}]);
    expect((await moved.document('news'))!).toMatchObject({title: 'Other origin', items: [expect.objectContaining({id: 'x'})]});
  });

  it('an origin on a closed port fails without a copy, and the poller keeps its other feeds', async () => {
    const good = await origin({kind: 'feed', body: rss(ENTRIES)});
    const {poller: gateway} = poller([feedOf(`http://127.0.0.1:${await closedPort()}/feed.xml`, {name: 'gone'}), feedOf(good)]);
    await expect(gateway.refresh('gone')).rejects.toMatchObject({code: 'feed_unreachable'});
    expect(await gateway.refresh('news')).toEqual({id: 'news', status: 'ok'});
    expect((await gateway.list()).map((status) => [status.name, status.stale, status.itemCount])).toEqual([
      ['gone', true, 0],
      ['news', false, 2],
    ]);
  });
});

// The copy round-trips through every database the gateway runs on (BIGINT times, booleans, JSON items).
const databases = await testDatabases();
const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const drop of drops) await drop();
});

describe.each(databases.filter((database) => database.kind !== 'sqlite').map((database) => [database.kind, database] as const))('the origin copy on %s', (_kind, database) => {
  it.skipIf(database.unavailable !== null)('is stored, served again after a reopen, and marked stale by a failure', async () => {
    const {connection, drop} = await database.create();
    drops.push(drop);
    const server = await origin({kind: 'feed', body: rss(ENTRIES)});
    const feeds = [feedOf(server)];
    let remote = await openGatewayStore(connection);
    try {
      const first = createOriginPoller({store: remote, config: {feeds}, baseUrl: () => BASE, now: () => clock});
      await first.refresh('news');
      const copy = (await first.document('news'))!;
      await remote.close();
      remote = await openGatewayStore(connection);
      const second = createOriginPoller({store: remote, config: {feeds}, baseUrl: () => BASE, now: () => clock + 1000});
      expect(await second.document('news')).toEqual(copy);
      expect(await second.refresh('news')).toEqual({id: 'news', status: 'not-modified'});
      server.mode = {kind: 'status', status: 500};
      await expect(second.refresh('news')).rejects.toMatchObject({code: 'feed_unreachable'});
      const third = createOriginPoller({store: remote, config: {feeds}, baseUrl: () => BASE, now: () => clock});
      expect(await third.document('news')).toEqual({...copy, stale: true});
      expect(await third.list()).toEqual([
        expect.objectContaining({stale: true, itemCount: 2, lastSuccessAt: new Date(clock + 1000).toISOString(), lastFailureAt: new Date(clock + 1000).toISOString()}),
      ]);
    } finally {
      await remote.close();
    }
  });
});
