// The reader on a real socket: startReaderServer as `workbench serve reader` runs it — store
// opened and migrated, background poller on, 127.0.0.1 — spoken to over HTTP with fetch.
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {parseRssFeed} from 'feedsmith';
import {afterAll, beforeAll, expect, it} from 'vitest';
import {startFeedOrigin, type FeedOrigin} from '../../../fixtures/feed-origin/server.js';
import {startReaderServer, type ReaderServer} from '../../../servers/reader/index.js';

let origin: FeedOrigin;
let dir: string;
let server: ReaderServer;

beforeAll(async () => {
  origin = await startFeedOrigin();
  dir = mkdtempSync(join(tmpdir(), 'wb-reader-socket-'));
  server = await startReaderServer({port: 0, db: join(dir, 'reader.sqlite'), pollIntervalMs: 200});
});
afterAll(async () => {
  await server?.close();
  await origin?.close();
  rmSync(dir, {recursive: true, force: true});
});

const api = (path: string, init?: RequestInit) => fetch(`${server.url}/api/v1${path}`, init);
const post = (path: string, body: unknown) => api(path, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify(body)});

it('listens on 127.0.0.1 and answers JSON, errors included', async () => {
  expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const health = await api('/health');
  expect(health.headers.get('content-type')).toMatch(/^application\/json/);
  expect(await health.json()).toEqual({ok: true});
  const bad = await api('/feeds', {method: 'POST', headers: {'content-type': 'application/json'}, body: '{oops'});
  expect(bad.status).toBe(400);
  expect(await bad.json()).toMatchObject({error: {code: 'invalid_body'}});
});

it('the background poller fetches feeds an OPML import left pending', async () => {
  const opml = `<?xml version="1.0"?><opml version="2.0"><head><title>mine</title></head><body><outline text="News">
    <outline text="A" xmlUrl="${origin.url}/gen/socket-a.xml?items=4"/><outline text="B" xmlUrl="${origin.url}/gen/socket-b.xml?items=6"/></outline></body></opml>`;
  const imported = await api('/opml', {method: 'POST', headers: {'content-type': 'text/x-opml'}, body: opml});
  expect(await imported.json()).toEqual({added: 2, skipped: 0, failed: []});
  let feeds: {fetchStatus: string; unreadCount: number; category: string}[] = [];
  for (let attempt = 0; attempt < 100; attempt++) {
    feeds = await (await api('/feeds')).json();
    if (feeds.every((feed) => feed.fetchStatus === 'ok')) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(feeds.map((feed) => [feed.fetchStatus, feed.unreadCount, feed.category])).toEqual([
    ['ok', 4, 'News'],
    ['ok', 6, 'News'],
  ]);
});

it('serves a public list as RSS at its rssUrl, which names this server', async () => {
  const list = await (await post('/lists', {title: 'Shared', visibility: 'public'})).json();
  expect(list.rssUrl).toBe(`${server.url}/api/v1/lists/${list.token}.xml`);
  const [article] = (await (await api('/articles?limit=1')).json()).articles;
  await post(`/lists/${list.id}/items`, {articleId: article.id});
  const rss = await fetch(list.rssUrl);
  expect(rss.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
  const feed = parseRssFeed(await rss.text());
  expect(feed.items?.map((item) => item.title)).toEqual([article.title]);
});
