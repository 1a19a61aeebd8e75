import {createServer, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import {join} from 'node:path';
import {afterEach, describe, expect, it, vi} from 'vitest';
import {cleanup} from 'ink-testing-library';
import {feedsPane} from '../../../source/tui/panes/feeds/FeedsPane.js';
import {openReader} from '../../../source/feeds/client/connect.js';
import type {ReaderService} from '../../../source/feeds/contracts.js';
import {startInProcessDaemon, type InProcessDaemon} from './daemonHarness.js';
import {KEYS, renderApp, type Size} from './renderApp.js';

// Colours on, before ink loads: which column has the focus shows only as an inverse row.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});

// The Feeds pane on the real reader service: in this process on a SQLite store in a private
// home (what `workbench feeds ...` opens without a server), feeds served from 127.0.0.1.

const NOW = Date.now();
const hoursAgo = (hours: number) => new Date(NOW - hours * 3_600_000).toUTCString();

interface Item {
  title: string;
  hours: number;
  content?: string;
  summary?: string;
  link?: string;
}

function rss(title: string, items: Item[]): string {
  const entries = items.map(
    (item) => `<item>
  <title>${item.title}</title>
  <link>${item.link ?? `https://example.org/posts/${encodeURIComponent(item.title)}`}</link>
  <guid>${encodeURIComponent(item.title)}</guid>
  <dc:creator>Ada</dc:creator>
  <pubDate>${hoursAgo(item.hours)}</pubDate>
  ${item.summary ? `<description><![CDATA[${item.summary}]]></description>` : ''}
  ${item.content ? `<content:encoded><![CDATA[${item.content}]]></content:encoded>` : ''}
</item>`,
  );
  return `<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel><title>${title}</title><link>https://example.org/</link><description>${title}</description>
${entries.join('\n')}
</channel></rss>`;
}

const LONG_BODY = Array.from({length: 80}, (_, index) => `<p>Paragraph number ${index + 1} of the long read.</p>`).join('');

/** The two feeds' items; a test may add to them before a refresh. */
function feedItems(): Record<string, {title: string; items: Item[]}> {
  return {
    '/truth.xml': {
      title: 'Artificial truth',
      items: [
        {
          title: 'Using vale with vim',
          hours: 2,
          link: 'https://example.org/posts/11',
          content:
            '<p>LWN recently published an <em>excellent</em> <a href="https://lwn.net/Articles/964075/">article</a> on vale.</p><ul><li>first point</li><li>second point</li></ul>',
        },
        {title: 'A long read', hours: 30, content: LONG_BODY},
      ],
    },
    '/miniflux.xml': {
      title: 'Miniflux commits',
      items: [
        {title: 'Parse podcast categories', hours: 5, content: '<pre>Parse podcast categories</pre>'},
        {title: 'Move iTunes definitions to their own packages', hours: 50, summary: '<p>Refactoring of the <b>iTunes</b> parser.</p>'},
      ],
    },
  };
}

/** A feed origin on 127.0.0.1: the fixtures above, a path answering 500 on demand. */
async function startOrigin() {
  const feeds = feedItems();
  const failing = new Set<string>();
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://origin.invalid').pathname;
    const feed = feeds[path];
    if (!feed || failing.has(path)) {
      response.writeHead(feed ? 500 : 404, {'content-type': 'text/plain'}).end('no');
      return;
    }
    response.writeHead(200, {'content-type': 'application/rss+xml; charset=utf-8'}).end(rss(feed.title, feed.items));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {url, feeds, failing, close: () => new Promise<void>((resolve) => server.close(() => resolve()))};
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

/** Which column's selected row is drawn inverse (the focused one), from the raw frame. */
function focusedColumn(raw: string): 'feeds' | 'articles' | undefined {
  for (const line of raw.split('\n')) {
    const parts = line.split('│');
    if (parts.length < 3) continue;
    if (parts[1]!.includes('\u001b[7m')) return 'feeds';
    if (parts.slice(2).join('│').includes('\u001b[7m')) return 'articles';
  }
  return undefined;
}

/** Tab or Shift-Tab, then wait until the column has the focus: the keys after it are meant for it. */
async function toColumn(app: Fixture['app'], column: 'feeds' | 'articles'): Promise<void> {
  await app.press(column === 'articles' ? KEYS.tab : KEYS.shiftTab);
  await app.waitFor(() => focusedColumn(app.lastFrame() ?? '') === column, `${column} column focused`);
}

/** Waits until the row holding `text` is the selected one (▸), before a key that acts on it. */
const selectedRow = (app: Fixture['app'], text: string) => app.waitFor(() => /▸/.test((app.line(text).split(text)[0] ?? '').split('│').pop() ?? ''), `${text} selected`);

interface Fixture {
  reader: ReaderService;
  app: Awaited<ReturnType<typeof renderApp>>;
  /** Article ids by title. */
  id(title: string): number;
}

/**
 * Two feeds subscribed through the reader (the second failing since), one article read, two
 * lists with one saved article: the state the pane then shows.
 */
async function renderFeeds(size: Size = {columns: 120, rows: 40}, options: {feedsPollMs?: number} = {}): Promise<Fixture> {
  origin = await startOrigin();
  let reader: ReaderService | undefined;
  daemon = await startInProcessDaemon({openReader: async () => (reader ??= await openReader({db: join(daemon!.dir, 'reader.sqlite')})), feedsPollMs: options.feedsPollMs});
  const service = await daemon.ports.feeds.reader();
  for (const path of ['/truth.xml', '/miniflux.xml']) {
    const result = await service.subscribe(origin.url + path);
    if (!('feed' in result)) throw new Error(`not subscribed: ${path}`);
  }
  const ids = new Map((await service.listArticles({limit: 100})).articles.map((article) => [article.title, article.id]));
  const id = (title: string) => {
    const found = ids.get(title);
    if (found === undefined) throw new Error(`no article "${title}"`);
    return found;
  };
  await service.setRead(id('Parse podcast categories'), true);
  origin.failing.add('/miniflux.xml');
  const miniflux = (await service.listFeeds()).find((feed) => feed.title === 'Miniflux commits')!;
  await expect(service.refresh(miniflux.id)).rejects.toMatchObject({code: 'feed_unreachable'});
  origin.failing.clear();
  await service.createList('Read later', 'private');
  const shared = await service.createList('Shared picks', 'public');
  await service.addToList(shared.id, id('Parse podcast categories'));
  const app = await renderApp(daemon.ports, size, {panes: [feedsPane], title: 'workbench'});
  return {reader: service, app, id};
}

describe('Feeds pane on the real reader', () => {
  it('shows feeds with unread counts and every article newest first, each naming its feed', async () => {
    const {app} = await renderFeeds();
    await app.waitForText('Using vale with vim');
    // Three unread in all: two in Artificial truth, one in Miniflux commits.
    await app.waitForText(/▸\s+3\s+All articles/);
    expect(app.frame()).toMatch(/^│ {4}2 {3}Artificial truth/m);
    // The failing feed carries a mark.
    expect(app.frame()).toMatch(/^│ {4}1 ! Miniflux commits/m);
    const frame = app.frame();
    const order = ['Using vale with vim', 'Parse podcast categories', 'A long read', 'Move iTunes'].map((title) => frame.indexOf(title));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(app.line('Using vale with vim')).toMatch(/N\s+\w{3}\s+\d+\s+Artificial truth\s+Using vale/);
    // Read articles carry no N.
    expect(app.line('Parse podcast categories')).not.toMatch(/│\s*▸?N /);
    expect(frame).toContain('enter open · r read/unread');
  });

  it('selecting a feed shows only its articles and its last error; Tab moves to the articles, Enter reads one as text from its HTML', async () => {
    const {reader, app, id} = await renderFeeds();
    await app.waitForText('Using vale with vim');
    // One step at a time: a list moves from what the last frame showed.
    await app.press(KEYS.down);
    await app.waitForText('Artificial truth · 2 unread');
    await app.press(KEYS.down);
    await app.waitFor((frame) => !frame.includes('Using vale with vim') && frame.includes('Parse podcast categories'), 'Miniflux articles');
    expect(app.frame()).toMatch(/! Miniflux commits: .*500/);
    await app.press(KEYS.up);
    await app.waitFor((frame) => frame.includes('Using vale with vim') && !frame.includes('Parse podcast'), 'Artificial truth articles');

    await toColumn(app, 'articles');
    await app.press(KEYS.enter);
    await app.waitForText('LWN recently published');
    const frame = app.frame();
    // The HTML became text: emphasis gone, the link's target kept, the list as bullets.
    expect(frame).toMatch(/LWN recently published an excellent article\s*<https:\/\/lwn\.net\/Articles\/964075\/>/);
    expect(frame).toMatch(/\*\s+first point/);
    expect(frame).not.toContain('<em>');
    expect(frame).toContain('Link:    https://example.org/posts/11');
    expect(frame).toContain('Feed:    Artificial truth');
    // Opening reads it, in the store.
    await vi.waitFor(async () => expect((await reader.getArticle(id('Using vale with vim'))).read).toBe(true), {timeout: 10_000});

    // n: the next unread article of the list, read in turn; at the end, a line says so.
    await app.press('n');
    await app.waitFor((frame) => frame.includes('Paragraph number 1 of') && !frame.includes('LWN recently'), 'next unread article');
    await vi.waitFor(async () => expect((await reader.getArticle(id('A long read'))).read).toBe(true), {timeout: 10_000});
    await app.press('n');
    await app.waitForText('no more unread articles here');

    await app.press(KEYS.escape);
    await app.waitFor((frame) => !frame.includes('Paragraph number') && frame.includes('A long read'), 'back to the list');
    await app.waitFor(() => !/N\s+\w{3}/.test(app.line('Using vale with vim')), 'read mark gone');
  });

  it('scrolls a long article with ↓, space and PgUp; q goes back to the list instead of quitting', async () => {
    const {app} = await renderFeeds();
    await app.waitForText('A long read');
    await toColumn(app, 'articles');
    await app.press(KEYS.down, KEYS.down);
    await selectedRow(app, 'A long read');
    await app.press(KEYS.enter);
    await app.waitForText('Paragraph number 1 of');
    expect(app.frame()).not.toContain('Paragraph number 40 of');
    await app.press(' ', ' ');
    await app.waitForText('Paragraph number 40 of');
    expect(app.frame()).not.toContain('Paragraph number 1 of');
    await app.press(KEYS.down);
    await app.press('\u001b[5~');
    await app.waitFor((frame) => !frame.includes('Paragraph number 40 of'), 'a page up');
    await app.press('q');
    await app.waitFor((frame) => frame.includes('Using vale with vim') && !frame.includes('Paragraph number'), 'list again');
    expect(app.onQuit).not.toHaveBeenCalled();
  });

  it('r toggles read, m marks the feed read, R refreshes it, each saying what happened', async () => {
    const {reader, app, id} = await renderFeeds();
    await app.waitForText('Using vale with vim');
    await toColumn(app, 'articles');
    await app.press('r');
    await app.waitForText('marked read: Using vale with vim');
    expect((await reader.getArticle(id('Using vale with vim'))).read).toBe(true);
    await app.press('r');
    await app.waitForText('marked unread: Using vale with vim');
    expect((await reader.getArticle(id('Using vale with vim'))).read).toBe(false);
    // Two r in one read (faster than a frame): read, then unread again, as the keys said.
    await app.press('rr');
    await vi.waitFor(async () => expect((await reader.getArticle(id('Using vale with vim'))).read).toBe(false), {timeout: 10_000});
    await app.waitForText('marked unread: Using vale with vim');

    await toColumn(app, 'feeds');
    await app.press(KEYS.down);
    await app.waitForText('Artificial truth · 2 unread');
    await app.press('m');
    await app.waitForText('Artificial truth: 2 articles marked read');
    const truth = (await reader.listFeeds()).find((feed) => feed.title === 'Artificial truth')!;
    expect(truth.unreadCount).toBe(0);
    await app.waitFor((frame) => /▸\s+Artificial truth/.test(frame), 'no unread count left');

    origin!.feeds['/truth.xml']!.items.unshift({title: 'Fresh from feed 1', hours: 0.1, content: '<p>new</p>'});
    await app.press('R');
    await app.waitForText('Artificial truth: 1 new article');
    await app.waitForText('Fresh from feed 1');
  });

  it('z snoozes until tomorrow 08:00 or a typed time; an unreadable or past time is one error line', async () => {
    const {reader, app, id} = await renderFeeds();
    const snoozed = async (title: string) => (await reader.getArticle(id(title))).snoozedUntil;
    // z, then the keys once the prompt has them.
    const snoozePrompt = async () => {
      await app.waitFor((frame) => !frame.includes('snooze until:'), 'previous prompt closed');
      await app.press('z');
      await app.waitForText('snooze until:');
    };
    await app.waitForText('Using vale with vim');
    await toColumn(app, 'articles');
    await app.press('z');
    await app.waitForText('snooze until:');
    await app.press(KEYS.enter);
    await app.waitForText(/snoozed until \d{4}-\d\d-\d\d 08:00: Using vale with vim/);
    const expected = new Date();
    expected.setDate(expected.getDate() + 1);
    expected.setHours(8, 0, 0, 0);
    expect(await snoozed('Using vale with vim')).toBe(expected.toISOString());
    // The row says it is snoozed: `z` where an unread article has `N`.
    await app.waitFor((frame) => /▸z \S+ +\d+ +Artificial truth +Using vale with vim/.test(frame), 'the snooze marker');

    await snoozePrompt();
    await app.press('2', 'h', KEYS.enter);
    await app.waitForText(/snoozed until .*: Using vale with vim/);
    await vi.waitFor(async () => expect(Date.parse((await snoozed('Using vale with vim'))!)).toBeLessThan(expected.getTime() - 1000), {timeout: 10_000});
    const later = Date.parse((await snoozed('Using vale with vim'))!);
    expect(later - Date.now()).toBeGreaterThan(7_100_000);
    expect(later - Date.now()).toBeLessThanOrEqual(7_200_000);

    // Typed fast (or pasted), the text and Enter arrive as one chunk.
    await snoozePrompt();
    await app.press('30m\r');
    await vi.waitFor(async () => expect(Date.parse((await snoozed('Using vale with vim'))!) - Date.now()).toBeLessThanOrEqual(1_800_000), {timeout: 10_000});

    const before = await snoozed('Using vale with vim');
    await snoozePrompt();
    await app.press(...'2020-01-01', KEYS.enter);
    await app.waitForText(/! snooze: 2020-01-01T00:00:00.000Z is in the past/);
    await snoozePrompt();
    await app.press(...'soonish', KEYS.enter);
    await app.waitForText(/! snooze: expected an ISO 8601 time/);
    // Esc in the prompt cancels.
    await snoozePrompt();
    await app.press(KEYS.escape);
    await app.waitFor((frame) => !frame.includes('snooze until:'), 'prompt closed');
    expect(await snoozed('Using vale with vim')).toBe(before);
  });

  it('l picks a list to save the article to, marks the lists that have it, and Enter there takes it out', async () => {
    const {reader, app, id} = await renderFeeds();
    const listsOf = async (title: string) => {
      const lists = await reader.listLists();
      return (await reader.getArticle(id(title))).listIds.map((listId) => lists.find((list) => list.id === listId)?.title);
    };
    await app.waitForText('Using vale with vim');
    await toColumn(app, 'articles');
    await app.press('l');
    await app.waitForText('Save “Using vale with vim” to a list');
    await app.waitForText(/▸ {3}Read later\s+private · 0 items/);
    // q closes the picker, not the app.
    await app.press('q');
    await app.waitFor((frame) => !frame.includes('to a list'), 'picker closed');
    await app.press('l');
    await app.waitForText('Read later');
    await app.press(KEYS.enter);
    await app.waitForText('saved to "Read later"');
    expect(await listsOf('Using vale with vim')).toEqual(['Read later']);

    // Parse podcast categories is already in Shared picks.
    await app.press(KEYS.down);
    await selectedRow(app, 'Parse podcast categories');
    await app.press('l');
    await app.waitForText('Save “Parse podcast categories” to a list');
    await app.waitForText(/✓ Shared picks/);
    await app.press(KEYS.down);
    await selectedRow(app, 'Shared picks');
    await app.press(KEYS.enter);
    await app.waitForText('removed from "Shared picks"');
    expect(await listsOf('Parse podcast categories')).toEqual([]);

    // The row after the lists makes a new one and saves the article to it; q types into its title.
    await app.press('l');
    await app.waitForText('+ new private list…');
    await app.press(KEYS.down, KEYS.down, KEYS.down);
    await selectedRow(app, '+ new private list');
    await app.press(KEYS.enter);
    await app.waitForText('title:');
    await app.press('quiet reads\r');
    await app.waitForText('saved to new list "quiet reads"');
    expect(await listsOf('Parse podcast categories')).toEqual(['quiet reads']);
    expect((await reader.listLists()).find((list) => list.title === 'quiet reads')?.visibility).toBe('private');
  });

  it('/ filters the focused column', async () => {
    const {app} = await renderFeeds();
    await app.waitForText('Using vale with vim');
    await toColumn(app, 'articles');
    // The text and Enter in one read: the filter kept is the whole text (the keys still arrive one by one).
    await app.press('/', 'podcast\r');
    await app.waitForText('filter: podcast');
    expect(app.frame()).toContain('Parse podcast categories');
    expect(app.frame()).not.toContain('Using vale with vim');
    await app.press(KEYS.escape);
    await app.waitForText('Using vale with vim');
  });

  it('errors are one line and the pane keeps working', async () => {
    // No looking again on its own: the pane still shows an article the store no longer has.
    const {reader, app} = await renderFeeds(undefined, {feedsPollMs: 600_000});
    await app.waitForText('Using vale with vim');
    const truth = (await reader.listFeeds()).find((feed) => feed.title === 'Artificial truth')!;
    await toColumn(app, 'articles');
    await reader.unsubscribe(truth.id);
    await app.press('r');
    await app.waitForText(/! mark read failed: .*\d/);

    origin!.failing.add('/miniflux.xml');
    await toColumn(app, 'feeds');
    await app.press('R');
    // Each feed's failure in the one line: the one gone from the store, the one answering 500.
    await app.waitForText(/! refresh failed for Artificial truth: no feed \d+; Miniflux commits: refreshing feed \d+ failed: HTTP 500/);
    expect(app.frame()).not.toMatch(/\n\s+at .+:\d+:\d+/);
    // The pane looked again after the refresh: the gone feed's articles went, the others stay.
    await app.waitFor((frame) => !frame.includes('Using vale with vim') && frame.includes('Parse podcast categories'), 'the gone feed’s articles gone');
  });

  it('a reader that cannot be opened is one line, not a crash', async () => {
    daemon = await startInProcessDaemon({openReader: () => openReader({server: 'ftp://x'})});
    const app = await renderApp(daemon.ports, {columns: 120, rows: 40}, {panes: [feedsPane], title: 'workbench'});
    await app.waitForText('! feed reader unavailable: --server: "ftp://x" is not an http(s) URL');
    await app.press(KEYS.down, KEYS.tab, 'r', 'm', 'z');
    expect(app.frame()).toContain('feed reader unavailable');
  });

  it('on a small terminal shows one column at a time', async () => {
    const {app} = await renderFeeds({columns: 60, rows: 20});
    await app.waitForText('Artificial truth');
    expect(app.frame()).not.toContain('Using vale with vim');
    await app.press(KEYS.down, KEYS.enter);
    await app.waitFor((frame) => frame.includes('Using vale with vim') && !frame.includes('Miniflux commits'), 'articles column alone');
    for (const row of app.frame().split('\n')) expect([...row].length).toBeLessThanOrEqual(60);
    await app.press(KEYS.shiftTab);
    await app.waitForText('Miniflux commits');
  });
});
