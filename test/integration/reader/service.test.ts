// Service rules that a local origin cannot stage on demand, with stand-in pipeline stages.
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, expect, it} from 'vitest';
import {WorkbenchError} from '../../../source/core/errors.js';
import type {FetchResult} from '../../../source/feeds/contracts.js';
import {createReaderService, type LocalReaderService, type ReaderDeps} from '../../../source/feeds/service/index.js';
import {openStore} from '../../../source/feeds/store/index.js';

let dir: string;
let service: LocalReaderService | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wb-reader-service-'));
});
afterEach(async () => {
  await service?.close();
  service = undefined;
  rmSync(dir, {recursive: true, force: true});
});

const feedBody = (url: string): FetchResult => ({
  status: 'ok',
  body: Buffer.from(`feed:${url}`),
  contentType: 'application/rss+xml',
  etag: null,
  lastModified: null,
  finalUrl: url,
  permanentUrl: null,
  maxAgeSeconds: null,
  retryAfterSeconds: null,
});

/** Stand-ins: URLs ending in .xml are feeds of two items; anything else is a page. */
function deps(overrides: Partial<ReaderDeps> = {}): Partial<ReaderDeps> {
  return {
    fetchFeed: async (url) => feedBody(url),
    parseFeed: (body) => {
      const url = body.toString().slice('feed:'.length);
      if (!url.endsWith('.xml')) throw new WorkbenchError('not_a_feed', `${url} is HTML`);
      return {format: 'rss', title: `Feed at ${url}`, items: [1, 2].map((index) => ({guid: `${url}#${index}`, title: `Item ${index}`, categories: []}))};
    },
    articleKey: (item) => item.guid!,
    discoverFeeds: async () => [],
    ...overrides,
  };
}

const open = async (overrides?: Partial<ReaderDeps>) => (service = await createReaderService({connection: join(dir, 'reader.sqlite'), deps: deps(overrides)}));

it('a page that links exactly one feed subscribes to that feed', async () => {
  const reader = await open({discoverFeeds: async () => [{url: 'https://blog.example/feed.xml', title: 'Blog', format: 'rss'}]});
  const answer = await reader.subscribe('https://blog.example/');
  expect(answer).toMatchObject({feed: {url: 'https://blog.example/feed.xml', title: 'Feed at https://blog.example/feed.xml', unreadCount: 2}});
});

it('a page whose one feed is already subscribed is a conflict', async () => {
  const reader = await open({discoverFeeds: async () => [{url: 'https://blog.example/feed.xml', title: 'Blog', format: 'rss'}]});
  await reader.subscribe('https://blog.example/feed.xml');
  await expect(reader.subscribe('https://blog.example/')).rejects.toMatchObject({code: 'conflict'});
});

it('two subscriptions to one URL at once: one feed, the other caller gets conflict', async () => {
  const reader = await open();
  const answers = await Promise.allSettled([reader.subscribe('https://a.example/feed.xml'), reader.subscribe('https://a.example/feed.xml')]);
  expect(answers.map((answer) => answer.status).sort()).toEqual(['fulfilled', 'rejected']);
  expect(answers.find((answer) => answer.status === 'rejected')).toMatchObject({reason: {code: 'conflict'}});
  expect(await reader.listFeeds()).toHaveLength(1);
});

it('concurrent refreshes of one feed fetch once and answer both callers', async () => {
  let fetches = 0;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const reader = await open();
  const {feed} = (await reader.subscribe('https://a.example/feed.xml')) as {feed: {id: number}};
  const slow = await createReaderService({
    store: reader.store,
    deps: deps({
      fetchFeed: async (url) => {
        fetches++;
        await gate;
        return feedBody(url);
      },
    }),
  });
  const calls = [slow.refresh(feed.id), slow.refresh(feed.id), slow.refresh(feed.id)];
  release();
  expect(await Promise.all(calls)).toEqual([{newArticles: 0}, {newArticles: 0}, {newArticles: 0}]);
  expect(fetches).toBe(1);
  await slow.refresh(feed.id);
  expect(fetches).toBe(2);
});

it('a feed removed while its refresh was fetching is not_found, and nothing is written', async () => {
  const reader: LocalReaderService = await open({
    fetchFeed: async (url) => {
      if (url.endsWith('/gone.xml') && (await reader.listFeeds()).length > 0) await reader.unsubscribe((await reader.listFeeds())[0]!.id);
      return feedBody(url);
    },
  });
  const {feed} = (await reader.subscribe('https://a.example/gone.xml')) as {feed: {id: number}};
  await expect(reader.refresh(feed.id)).rejects.toMatchObject({code: 'not_found'});
  expect(Number((await reader.store.db('articles').count({n: '*'}))[0]!.n)).toBe(0);
});

it('a permanent redirect to an address another subscription has keeps the old address', async () => {
  const reader = await open();
  await reader.subscribe('https://new.example/feed.xml');
  const {feed} = (await reader.subscribe('https://old.example/feed.xml')) as {feed: {id: number}};
  const moved = await createReaderService({store: reader.store, deps: deps({fetchFeed: async (url) => ({...feedBody(url), permanentUrl: 'https://new.example/feed.xml'})})});
  await moved.refresh(feed.id);
  expect((await reader.getFeed(feed.id)).url).toBe('https://old.example/feed.xml');
});

it('in-process callers get the same validation as HTTP ones', async () => {
  const reader = await open();
  await expect(reader.listArticles({limit: 500})).rejects.toMatchObject({code: 'invalid_argument'});
  await expect(reader.setRead(1, 'yes' as unknown as boolean)).rejects.toMatchObject({code: 'invalid_argument'});
  await expect(reader.createList('  ', 'public')).rejects.toMatchObject({code: 'invalid_argument'});
  await expect(reader.createList('x', 'shared' as 'public')).rejects.toMatchObject({code: 'invalid_argument'});
  await expect(reader.getArticle(-1)).rejects.toMatchObject({code: 'invalid_argument'});
  await expect(reader.subscribe('gopher://x.example/')).rejects.toMatchObject({code: 'invalid_argument'});
});

it('GET /feeds answers from its last answer only while nothing changed: a write here, a write by another connection, and a snooze that ends each show at once', async () => {
  let now = Date.UTC(2026, 0, 1);
  const reader = await open({now: () => new Date(now)});
  const answer = await reader.subscribe('https://blog.example/feed.xml');
  if (!('feed' in answer)) throw new Error('subscribing gave choices');
  const {feed} = answer;
  const unread = async () => (await reader.listFeeds()).find((item) => item.id === feed.id)!.unreadCount;
  expect(await unread()).toBe(2);
  expect(await reader.listFeeds()).toBe(await reader.listFeeds());

  const [first, second] = (await reader.listArticles({})).articles;
  await reader.setRead(first!.id, true);
  expect(await unread()).toBe(1);

  // Another process's connection (the CLI's, a second reader) writes straight to the file.
  const other = await openStore(join(dir, 'reader.sqlite'));
  await other.db('feeds').where('id', feed.id).update({unread_count: 7});
  await other.close();
  expect(await unread()).toBe(7);
  await reader.store.db('feeds').where('id', feed.id).update({unread_count: 1});

  await reader.snooze(second!.id, new Date(now + 60_000).toISOString());
  expect(await unread()).toBe(0);
  now += 30_000;
  expect(await unread()).toBe(0);
  // The snooze ends with no write at all: the next answer counts the article again.
  now += 31_000;
  expect(await unread()).toBe(1);
});
