import {chmodSync, existsSync, readFileSync, writeFileSync} from 'node:fs';
import {createServer, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import {join} from 'node:path';
import {afterEach, describe, expect, it, vi} from 'vitest';
import {cleanup} from 'ink-testing-library';
import {feedsPane} from '../../../source/tui/panes/feeds/FeedsPane.js';
import {openReader} from '../../../source/feeds/client/connect.js';
import type {ReaderService} from '../../../source/feeds/contracts.js';
import {startInProcessDaemon, type InProcessDaemon} from './daemonHarness.js';
import {KEYS, renderApp} from './renderApp.js';

// The Feeds pane's own actions on the real reader (SQLite in a private home), feeds from 127.0.0.1:
// adding (with discovery's choice list), removing, marking everything read, opening a link.

const rss = (title: string, items: string[]) => `<?xml version="1.0"?>
<rss version="2.0"><channel><title>${title}</title><link>https://example.org/</link><description>${title}</description>
${items.map((item, index) => `<item><title>${item}</title><link>https://example.org/${encodeURIComponent(title)}/${index}</link><guid>${encodeURIComponent(title + item)}</guid><pubDate>${new Date(Date.now() - index * 3_600_000).toUTCString()}</pubDate></item>`).join('\n')}
</channel></rss>`;

async function startOrigin() {
  const pages: Record<string, {type: string; body: string}> = {
    '/one.xml': {type: 'application/rss+xml', body: rss('Feed one', ['One a', 'One b'])},
    '/two.xml': {type: 'application/rss+xml', body: rss('Feed two', ['Two a'])},
    '/three.xml': {type: 'application/rss+xml', body: rss('Feed three', ['Three a', 'Three b', 'Three c'])},
    '/blog/': {
      type: 'text/html',
      body: `<!doctype html><html><head><title>Blog</title>
<link rel="alternate" type="application/rss+xml" title="Posts" href="/two.xml">
<link rel="alternate" type="application/rss+xml" title="Comments" href="/three.xml">
</head><body>hi</body></html>`,
    },
  };
  const server: Server = createServer((request, response) => {
    const page = pages[new URL(request.url ?? '/', 'http://x.invalid').pathname];
    if (!page) return void response.writeHead(404).end('no');
    response.writeHead(200, {'content-type': `${page.type}; charset=utf-8`}).end(page.body);
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
  const app = await renderApp(daemon.ports, {columns: 120, rows: 40}, {panes: [feedsPane], title: 'workbench'});
  return {service, app, url: origin.url};
}

const unread = async (service: ReaderService) => (await service.listFeeds()).reduce((sum, feed) => sum + feed.unreadCount, 0);

describe('Feeds pane actions', () => {
  it('an empty reader says how to add a feed; a adds one by URL, and a page linking two feeds offers the choice', async () => {
    const {service, app, url} = await render([]);
    await app.waitForText('no feeds yet · press a to add one');
    // The empty text sits under the column's title, not over it ("no articless").
    expect(app.frame()).not.toContain('articless');
    expect(app.frame()).toMatch(/│All articles\s+│?\s*$/m);
    await app.press('a');
    await app.waitForText('add feed:');
    // The URL and Enter in one read: the whole URL is asked for (issue 26: /one.xm).
    await app.press(`${url}/one.xml\r`);
    await app.waitForText('subscribed: Feed one');
    await app.waitForText('One a');
    expect((await service.listFeeds()).map((feed) => feed.title)).toEqual(['Feed one']);

    await app.press('a');
    await app.waitForText('add feed:');
    await app.press(...`${url}/blog/`, KEYS.enter);
    await app.waitForText('links 2 feeds: pick one');
    expect(app.frame()).toMatch(/▸ Posts .*\/two\.xml/);
    await app.press(KEYS.down);
    await app.waitFor((frame) => /▸ Comments/.test(frame), 'second choice selected');
    await app.press(KEYS.enter);
    await app.waitForText('subscribed: Feed three');
    expect((await service.listFeeds()).map((feed) => feed.title).sort()).toEqual(['Feed one', 'Feed three']);

    // Esc in the prompt adds nothing.
    await app.press('a');
    await app.waitForText('add feed:');
    await app.press(KEYS.escape);
    await app.waitFor((frame) => !frame.includes('add feed:'), 'prompt closed');
    expect(await service.listFeeds()).toHaveLength(2);
  });

  it('m on All articles asks first: any key but y cancels, y marks every feed read', async () => {
    const {service, app} = await render(['/one.xml', '/three.xml']);
    await app.waitForText(/▸\s+5\s+All articles/);
    await app.press('m');
    await app.waitForText('mark all 5 articles in every feed read?');
    await app.press('n');
    await app.waitForText('cancelled');
    expect(await unread(service)).toBe(5);
    await app.press('m');
    await app.waitForText('mark all 5 articles in every feed read?');
    await app.press('y');
    await app.waitForText('All articles: 5 articles marked read');
    expect(await unread(service)).toBe(0);
    // The counts are re-read after the change: the row shows none before m is pressed again.
    await app.waitForText(/▸\s{5,}All articles/);
    // A single feed is marked at once, as before; nothing left to mark says so in the singular.
    await app.press('m');
    await app.waitForText('no unread articles');
  });

  it('d removes the selected feed after y; All articles cannot be removed', async () => {
    const {service, app} = await render(['/one.xml', '/two.xml']);
    await app.waitForText('Feed two');
    await app.press('d');
    await app.waitForText('select a feed to remove (d)');
    await app.press(KEYS.down, KEYS.down);
    await app.waitForText('Feed two · 1 unread');
    await app.press('d');
    await app.waitForText('remove Feed two and its articles?');
    await app.press(KEYS.escape);
    await app.waitForText('cancelled');
    expect(await service.listFeeds()).toHaveLength(2);
    await app.press('d');
    await app.waitForText('remove Feed two and its articles?');
    await app.press('y');
    await app.waitForText('removed: Feed two');
    expect((await service.listFeeds()).map((feed) => feed.title)).toEqual(['Feed one']);
    await app.waitFor((frame) => !frame.includes('Two a'), 'its articles gone');
  });

  it('o opens the article link with $BROWSER; with no browser at all the link is shown', async () => {
    const {app} = await render(['/one.xml']);
    const record = join(daemon!.dir, 'opened.txt');
    const browser = join(daemon!.dir, 'browser.sh');
    writeFileSync(browser, `#!/bin/sh\nprintf '%s' "$1" > '${record}'\n`);
    chmodSync(browser, 0o755);
    vi.stubEnv('BROWSER', browser);
    await app.waitForText('One a');
    await app.press(KEYS.tab);
    await app.waitForText('One a');
    await app.press('o');
    await app.waitForText('opened in');
    // The browser is a shell script the TUI starts: on a loaded machine it takes longer than
    // vi.waitFor's default second to have written the file.
    await vi.waitFor(() => expect(existsSync(record) && readFileSync(record, 'utf8')).toBe('https://example.org/Feed%20one/0'), {timeout: 15_000});

    vi.stubEnv('BROWSER', join(daemon!.dir, 'no-such-browser'));
    vi.stubEnv('PATH', join(daemon!.dir, 'empty-path'));
    await app.press('o');
    await app.waitForText('link: https://example.org/Feed%20one/0 (could not run $BROWSER');
  });
});
