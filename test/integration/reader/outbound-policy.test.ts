// The reader service (real SQLite store, real fetcher, discovery and parser) under the address
// policy: subscribe through discovery, OPML import, polling. Origins are real servers on
// 127.0.0.1; public names come from an injected resolver, so no packet leaves this host.
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest';
import {discoverFeeds} from '../../../source/feeds/discovery/index.js';
import {fetchFeed} from '../../../source/feeds/fetcher/index.js';
import {createReaderService, type LocalReaderService} from '../../../source/feeds/service/index.js';
import {PUBLIC_ADDRESS, startOrigin, testNetwork, type TestNetwork, type TestOrigin} from '../../helpers/test-network.js';

const RSS = '<?xml version="1.0"?><rss version="2.0"><channel><title>Local</title><item><title>One</title><guid>1</guid></item></channel></rss>';

let origin: TestOrigin;
let port: number;
const grown = new Map<string, number>();
beforeAll(async () => {
  origin = await startOrigin((request, response) => {
    const url = new URL(request.url ?? '/', 'http://origin');
    if (url.pathname === '/page.html') {
      const link = url.searchParams.get('link')!;
      return void response
        .writeHead(200, {'content-type': 'text/html'})
        .end(`<!doctype html><html><head><link rel="alternate" type="application/rss+xml" href="${link}"></head></html>`);
    }
    if (url.pathname === '/to') return void response.writeHead(301, {location: url.searchParams.get('url')!}).end();
    if (url.pathname === '/grows.xml') {
      // One more item at every request: a poll that reaches this server has something new to store.
      const key = `${url.pathname}${url.search}`;
      const count = (grown.get(key) ?? 0) + 1;
      grown.set(key, count);
      const items = Array.from({length: count}, (_, index) => `<item><title>Item ${index + 1}</title><guid>${index + 1}</guid></item>`).join('');
      return void response
        .writeHead(200, {'content-type': 'application/rss+xml'})
        .end(`<?xml version="1.0"?><rss version="2.0"><channel><title>Grows</title>${items}</channel></rss>`);
    }
    if (url.pathname.endsWith('.xml')) return void response.writeHead(200, {'content-type': 'application/rss+xml'}).end(RSS);
    response.writeHead(404).end();
  });
  port = origin.port;
});
afterAll(() => origin.close());

let dir: string;
let service: LocalReaderService;
let net: TestNetwork;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-outbound-policy-'));
  net = testNetwork({
    'public.test': PUBLIC_ADDRESS,
    'metadata.test': '169.254.169.254',
    'rebind.test': [[PUBLIC_ADDRESS], ['127.0.0.1']],
    // Public for discovery's check and the subscribing fetch, 127.0.0.1 from then on.
    'rebind-later.test': [[PUBLIC_ADDRESS], [PUBLIC_ADDRESS], ['127.0.0.1']],
  });
  service = await createReaderService({
    connection: join(dir, 'reader.sqlite'),
    deps: {fetchFeed: (url, options) => fetchFeed(url, {...options, network: net}), discoverFeeds: (url) => discoverFeeds(url, {network: net})},
  });
});
afterEach(async () => {
  await service.close();
  rmSync(dir, {recursive: true, force: true});
});

const page = (host: string, link: string) => `http://${host}:${port}/page.html?link=${encodeURIComponent(link)}`;
const feedHits = () => origin.hits.filter((path) => path.split('?')[0]!.endsWith('.xml')).length;

describe('the reader service and the address policy', () => {
  it("subscribes to a loopback feed the user typed (a developer's own dev server)", async () => {
    const answer = await service.subscribe(`http://127.0.0.1:${port}/dev.xml`);
    expect(answer).toMatchObject({feed: {url: `http://127.0.0.1:${port}/dev.xml`, title: 'Local'}});
  });

  it('refuses a feed discovered on a public page that links to 127.0.0.1, and stores nothing', async () => {
    const before = feedHits();
    await expect(service.subscribe(page('public.test', `http://127.0.0.1:${port}/private.xml`))).rejects.toMatchObject({
      code: 'feed_unreachable',
      message: expect.stringMatching(/^refused 127\.0\.0\.1: it is a private or loopback address/),
    });
    expect(feedHits()).toBe(before);
    expect(await service.listFeeds()).toEqual([]);
  });

  it('refuses a discovered link whose name passes the discovery check and rebinds to 127.0.0.1 for the fetch', async () => {
    const before = feedHits();
    await expect(service.subscribe(page('public.test', `http://rebind.test:${port}/feed.xml`))).rejects.toMatchObject({
      code: 'feed_unreachable',
      message: expect.stringMatching(/^refused rebind\.test: it resolves to a private or loopback address/),
    });
    expect(net.lookups.filter((name) => name === 'rebind.test')).toHaveLength(2);
    expect(feedHits()).toBe(before);
  });

  it('a feed discovered on a public page stays public: when its name rebinds to 127.0.0.1 after subscribing, the refresh is refused', async () => {
    const answer = await service.subscribe(page('public.test', `http://rebind-later.test:${port}/grows.xml?rebind`));
    expect(answer).toMatchObject({feed: {title: 'Grows', unreadCount: 1}});
    const feed = (answer as {feed: {id: number}}).feed;
    expect(net.lookups.filter((name) => name === 'rebind-later.test')).toHaveLength(2);
    const hits = origin.hits.length;

    await expect(service.refresh(feed.id)).rejects.toMatchObject({
      code: 'feed_unreachable',
      message: expect.stringMatching(/refused rebind-later\.test: it resolves to a private or loopback address/),
    });
    expect(origin.hits.length).toBe(hits);
    expect(await service.getFeed(feed.id)).toMatchObject({fetchStatus: 'error', unreadCount: 1});
    expect((await service.listArticles({feed_id: feed.id})).articles.map((article) => article.title)).toEqual(['Item 1']);
  });

  it('a typed loopback feed, and a loopback feed discovered on a loopback page, still refresh', async () => {
    const typed = await service.subscribe(`http://127.0.0.1:${port}/grows.xml?typed`);
    const local = await service.subscribe(page('127.0.0.1', `http://127.0.0.1:${port}/grows.xml?local`));
    for (const answer of [typed, local]) {
      const feed = (answer as {feed: {id: number}}).feed;
      expect(await service.refresh(feed.id)).toEqual({newArticles: 1});
      expect(await service.getFeed(feed.id)).toMatchObject({fetchStatus: 'ok', unreadCount: 2});
    }
  });

  it('a permanent redirect from a public address moves the feed to a URL that may not lead to a private address later', async () => {
    const target = `http://rebind-later.test:${port}/grows.xml?moved`;
    const answer = await service.subscribe(`http://public.test:${port}/to?url=${encodeURIComponent(target)}`);
    const feed = (answer as {feed: {id: number; url: string}}).feed;
    expect(feed.url).toBe(target);
    // rebind-later.test answered the subscribing fetch once; the next lookups give 127.0.0.1.
    await service.refresh(feed.id).catch(() => undefined);
    const hits = origin.hits.length;
    await expect(service.refresh(feed.id)).rejects.toMatchObject({code: 'feed_unreachable', message: expect.stringMatching(/refused rebind-later\.test/)});
    expect(origin.hits.length).toBe(hits);
  });

  it('refuses a subscription whose public URL redirects to 169.254.169.254', async () => {
    await expect(service.subscribe(`http://public.test:${port}/to?url=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`)).rejects.toMatchObject({
      code: 'feed_unreachable',
      message: 'refused 169.254.169.254: it is a link-local or cloud metadata address, which is never fetched',
    });
  });

  it('imports no OPML entry that names a metadata address, and refuses a name resolving to one when it is polled', async () => {
    const outlines = [
      'http://169.254.169.254/latest/meta-data/',
      'http://2852039166/feed',
      'http://[fd00:ec2::254]/feed',
      'http://[::ffff:169.254.169.254]/feed',
      `http://metadata.test:${port}/feed.xml`,
      `http://127.0.0.1:${port}/mine.xml`,
    ];
    const opml = `<?xml version="1.0"?><opml version="2.0"><head><title>t</title></head><body>${outlines.map((url) => `<outline type="rss" text="x" xmlUrl="${url.replace(/&/g, '&amp;')}"/>`).join('')}</body></opml>`;
    const result = await service.importOpml(opml);
    expect(result.added).toBe(2);
    expect(result.failed.map((failed) => failed.url)).toEqual(outlines.slice(0, 4));
    for (const failed of result.failed) expect(failed.error).toMatch(/^refused .*: it is a link-local or cloud metadata address, which is never fetched$/);

    const feeds = await service.listFeeds();
    const metadata = feeds.find((feed) => feed.url.includes('metadata.test'))!;
    const mine = feeds.find((feed) => feed.url.includes('mine.xml'))!;
    await expect(service.refresh(metadata.id)).rejects.toMatchObject({
      code: 'feed_unreachable',
      message: expect.stringMatching(/refused metadata\.test: it resolves to a link-local or cloud metadata address/),
    });
    expect(await service.refresh(mine.id)).toEqual({newArticles: 1});
  });
});
