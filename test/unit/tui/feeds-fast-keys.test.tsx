import {createServer, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import {join} from 'node:path';
import {afterEach, describe, expect, it, vi} from 'vitest';
import {cleanup} from 'ink-testing-library';
import {feedsPane} from '../../../source/tui/panes/feeds/FeedsPane.js';
import {openReader} from '../../../source/feeds/client/connect.js';
import type {ReaderService} from '../../../source/feeds/contracts.js';
import {startInProcessDaemon, type InProcessDaemon} from './daemonHarness.js';
import {KEYS} from './renderApp.js';
import {renderBatched} from './batchedKeys.js';

// Keys faster than frames (`jm`, a paste, tmux send-keys): the keys of one write reach the pane in
// one React batch (batchedKeys.tsx), nothing rendered between them. Each key must act on what the
// key before it did, not on what the last frame showed. The real reader (SQLite in a private
// home), feeds from 127.0.0.1.

const rss = (title: string, items: string[]) => `<?xml version="1.0"?>
<rss version="2.0"><channel><title>${title}</title><link>https://example.org/</link><description>${title}</description>
${items.map((item, index) => `<item><title>${item}</title><link>https://example.org/${encodeURIComponent(item)}</link><guid>${encodeURIComponent(title + item)}</guid><pubDate>${new Date(Date.now() - (index + title.length) * 3_600_000).toUTCString()}</pubDate></item>`).join('\n')}
</channel></rss>`;

async function startOrigin() {
  const pages: Record<string, string> = {
    '/blog/': `<!doctype html><html><head><title>Blog</title>
<link rel="alternate" type="application/rss+xml" title="Posts" href="/two.xml">
<link rel="alternate" type="application/rss+xml" title="Comments" href="/three.xml">
</head><body>hi</body></html>`,
    '/one.xml': rss('Feed one', ['One a', 'One b']),
    '/two.xml': rss('Feed two', ['Two a']),
    '/three.xml': rss('Feed three', ['Three a', 'Three b', 'Three c']),
  };
  const server: Server = createServer((request, response) => {
    const page = pages[new URL(request.url ?? '/', 'http://x.invalid').pathname];
    if (!page) return void response.writeHead(404).end('no');
    response.writeHead(200, {'content-type': `${page.startsWith('<!doctype') ? 'text/html' : 'application/rss+xml'}; charset=utf-8`}).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve()))};
}

let daemon: InProcessDaemon | undefined;
let origin: Awaited<ReturnType<typeof startOrigin>> | undefined;

afterEach(async () => {
  cleanup();
  await daemon?.close();
  await origin?.close();
  daemon = undefined;
  origin = undefined;
});

async function render(subscribed: string[]) {
  origin = await startOrigin();
  let reader: ReaderService | undefined;
  daemon = await startInProcessDaemon({openReader: async () => (reader ??= await openReader({db: join(daemon!.dir, 'reader.sqlite')}))});
  const service = await daemon.ports.feeds.reader();
  for (const path of subscribed) await service.subscribe(origin.url + path);
  const app = renderBatched(daemon.ports, feedsPane);
  // The articles as the pane lists them under All articles, newest first.
  const articles = (await service.listArticles({limit: 100})).articles;
  return {service, app, url: origin.url, articles};
}

const unreadOf = async (service: ReaderService, title: string) => (await service.listFeeds()).find((feed) => feed.title === title)?.unreadCount;
const isRead = async (service: ReaderService, id: number) => (await service.getArticle(id)).read;

describe('Feeds pane: keys of one read', () => {
  it('m, R and d after a move act on the feed the move reached; y in the same read answers the question', async () => {
    const {service, app} = await render(['/one.xml', '/three.xml']);
    await app.waitForText(/▸\s+5\s+All articles/);
    // On All articles m would ask first; on Feed one it marks at once.
    await app.press('jm');
    await app.waitForText('Feed one: 2 articles marked read');
    expect(await unreadOf(service, 'Feed one')).toBe(0);
    expect(await unreadOf(service, 'Feed three')).toBe(3);

    await app.press('jR');
    await app.waitForText('Feed three: 0 new articles');

    await app.press('kdy');
    await app.waitForText('removed: Feed one');
    expect((await service.listFeeds()).map((feed) => feed.title)).toEqual(['Feed three']);
  });

  it('Tab, a move and Enter open the article the move reached; r after a move toggles that one', async () => {
    const {service, app, articles} = await render(['/one.xml', '/three.xml']);
    const [first, second, third] = articles;
    await app.waitForText(first!.title!);
    await app.press(`${KEYS.tab}j${KEYS.enter}`);
    await app.waitFor((frame) => frame.includes(second!.title!) && !frame.includes(third!.title!), 'the second article open');
    await vi.waitFor(async () => expect(await isRead(service, second!.id)).toBe(true), {timeout: 10_000});
    expect(await isRead(service, first!.id)).toBe(false);
    await app.press(KEYS.escape);
    await app.waitForText(third!.title!);

    await app.press('jr');
    await app.waitForText(`marked read: ${third!.title}`);
    expect(await isRead(service, third!.id)).toBe(true);
    expect(await isRead(service, first!.id)).toBe(false);
  });

  it('n twice in the reader opens the next unread article, then the one after it', async () => {
    const {service, app, articles} = await render(['/three.xml']);
    const [first, second, third] = articles;
    await app.waitForText(first!.title!);
    await app.press(KEYS.tab);
    await app.press(KEYS.enter);
    await app.waitFor((frame) => frame.includes(first!.title!) && !frame.includes(second!.title!), 'the first article open');
    await app.press('nn');
    await app.waitFor((frame) => frame.includes(third!.title!) && !frame.includes(first!.title!), 'the third article open');
    await vi.waitFor(async () => expect(await isRead(service, third!.id)).toBe(true), {timeout: 10_000});
    expect(await isRead(service, second!.id)).toBe(true);
  });

  it('a, the URL and Enter in one read subscribe; z and a time in one read snooze', async () => {
    const {service, app, url} = await render(['/one.xml']);
    await app.waitForText('One a');
    await app.press(`a${url}/two.xml\r`);
    await app.waitForText('subscribed: Feed two');
    expect((await service.listFeeds()).map((feed) => feed.title).sort()).toEqual(['Feed one', 'Feed two']);

    // Feed two is selected, its one article shown.
    await app.waitFor((frame) => frame.includes('Two a') && !frame.includes('One a'), 'Feed two’s article');
    await app.press(`${KEYS.tab}z2h\r`);
    await app.waitForText(/snoozed until .*: Two a/);
    const two = (await service.listArticles({limit: 100})).articles.find((article) => article.title === 'Two a')!;
    const until = Date.parse((await service.getArticle(two.id)).snoozedUntil!);
    expect(until - Date.now()).toBeGreaterThan(7_100_000);
    expect(until - Date.now()).toBeLessThanOrEqual(7_200_000);
  });

  it('a move and Enter in a picker pick what the move reached: the feed of a page, the list to save to', async () => {
    const {service, app, url} = await render(['/one.xml']);
    await service.createList('Read later', 'private');
    await service.createList('Shared picks', 'public');
    await app.waitForText('One a');
    await app.press(`a${url}/blog/\r`);
    await app.waitForText('links 2 feeds: pick one');
    await app.press('j\r');
    await app.waitForText('subscribed: Feed three');
    expect((await service.listFeeds()).map((feed) => feed.title).sort()).toEqual(['Feed one', 'Feed three']);

    await app.waitFor((frame) => frame.includes('Three a') && !frame.includes('One a'), 'Feed three’s articles');
    await app.press(`${KEYS.tab}l`);
    await app.waitForText('Save “Three a” to a list');
    await app.waitForText(/Shared picks\s+public/);
    await app.press('j\r');
    await app.waitForText('saved to "Shared picks"');
    const [three] = (await service.listArticles({limit: 100})).articles.filter((article) => article.title === 'Three a');
    const lists = await service.listLists();
    expect((await service.getArticle(three!.id)).listIds.map((id) => lists.find((list) => list.id === id)?.title)).toEqual(['Shared picks']);
  });
});
