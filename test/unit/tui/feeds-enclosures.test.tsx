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

// The Feeds pane's reader with a podcast's enclosures: the real reader (SQLite in a private home)
// subscribed to a podcast RSS served from 127.0.0.1, in a 120×40 terminal. The browser is a
// script that records what it was given; the clipboard is the OSC 52 sequence the pane writes.

const hour = (ago: number) => new Date(Date.UTC(2026, 10, 20, 12) - ago * 3_600_000).toUTCString();
const PODCAST = `<?xml version="1.0"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>Pod</title><link>https://pod.example/</link><description>A podcast</description>
<item><title>Two parts</title><link>https://pod.example/2</link><guid>ep-2</guid><pubDate>${hour(0)}</pubDate><description>Second show</description>
<enclosure url="https://cdn.example/ep2-part1.mp3" type="audio/mpeg" length="5000000"/>
<enclosure url="https://cdn.example/ep2-part2.ogg" type="audio/ogg" length="4000000"/></item>
<item><title>First episode</title><link>https://pod.example/1</link><guid>ep-1</guid><pubDate>${hour(1)}</pubDate><description>First show</description>
<enclosure url="https://cdn.example/ep1.mp3" type="audio/mpeg" length="9700000"/><itunes:duration>1:02:03</itunes:duration></item>
<item><title>Just notes</title><link>https://pod.example/notes</link><guid>notes</guid><pubDate>${hour(2)}</pubDate><description>No audio</description></item>
</channel></rss>`;

async function startOrigin() {
  const server: Server = createServer((request, response) => {
    if (request.url !== '/podcast.xml') return void response.writeHead(404).end('no');
    response.writeHead(200, {'content-type': 'application/rss+xml; charset=utf-8'}).end(PODCAST);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve()))};
}

let daemon: InProcessDaemon | undefined;
let origin: Awaited<ReturnType<typeof startOrigin>> | undefined;

afterEach(async () => {
  cleanup();
  vi.unstubAllEnvs();
  await daemon?.close();
  await origin?.close();
  daemon = undefined;
  origin = undefined;
});

async function render(size = {columns: 120, rows: 40}) {
  origin = await startOrigin();
  let reader: ReaderService | undefined;
  daemon = await startInProcessDaemon({openReader: async () => (reader ??= await openReader({db: join(daemon!.dir, 'reader.sqlite')}))});
  const service = await daemon.ports.feeds.reader();
  await service.subscribe(origin.url + '/podcast.xml');
  const record = join(daemon.dir, 'opened.txt');
  const browser = join(daemon.dir, 'browser.sh');
  writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${record}'\n`);
  chmodSync(browser, 0o755);
  vi.stubEnv('BROWSER', browser);
  const app = await renderApp(daemon.ports, size, {panes: [feedsPane], title: 'workbench'});
  // Feeds loaded (3 unread), then the articles' column (on a short terminal, the only one shown).
  await app.waitForText(/3\s+All articles/);
  await app.press(KEYS.tab);
  await app.waitForText('First episode');
  /** Every URL the browser script was started with, in order. */
  const opened = () => (existsSync(record) ? readFileSync(record, 'utf8').split('\n').filter(Boolean) : []);
  return {app, opened};
}

const keyLine = (frame: string) =>
  frame
    .trimEnd()
    .split('\n')
    .reverse()
    .find((row) => row.includes('scroll')) ?? '';
const osc52 = (text: string) => `\u001b]52;c;${Buffer.from(text).toString('base64')}\u0007`;

describe('Feeds pane: an article’s enclosures', () => {
  it('shows the enclosure in the header; e opens it with $BROWSER, y copies its URL with OSC 52', async () => {
    const {app, opened} = await render();
    await app.press(KEYS.down, KEYS.enter);
    await app.waitForText('Enclosure: https://cdn.example/ep1.mp3 (audio/mpeg, 9.7 MB, 1:02:03)');
    // One enclosure: nothing to choose between. The whole line fits, `back` too.
    expect(keyLine(app.frame())).toContain('o open link · e/y enclosure · n next unread · esc/q back');

    await app.press('e');
    await app.waitForText('opened enclosure in');
    // A shell script the TUI starts: on a loaded machine it takes a while to have written the file.
    await vi.waitFor(() => expect(opened()).toEqual(['https://cdn.example/ep1.mp3']), {timeout: 15_000});

    expect(app.frames.some((frame) => frame.includes(osc52('https://cdn.example/ep1.mp3')))).toBe(false);
    await app.press('y');
    await app.waitForText('copied enclosure URL to the clipboard (OSC 52): https://cdn.example/ep1.mp3');
    expect(app.frames.some((frame) => frame.includes(osc52('https://cdn.example/ep1.mp3')))).toBe(true);
  });

  it('several are numbered; E chooses the next (marked ▸), and e and y act on the chosen one', async () => {
    const {app, opened} = await render();
    await app.press(KEYS.enter);
    await app.waitForText('Enclosure 2: https://cdn.example/ep2-part2.ogg (audio/ogg, 4.0 MB)');
    expect(app.line('Enclosure 1:')).toContain('▸Enclosure 1: https://cdn.example/ep2-part1.mp3');
    expect(keyLine(app.frame())).toContain('o open link · e/y/E enclosure · n next unread · esc/q back');

    await app.press('E');
    await app.waitForText('▸Enclosure 2: https://cdn.example/ep2-part2.ogg');
    expect(app.line('Enclosure 1:')).not.toContain('▸');
    await app.press('e');
    await app.waitForText('opened enclosure 2/2 in');
    await vi.waitFor(() => expect(opened()).toEqual(['https://cdn.example/ep2-part2.ogg']), {timeout: 15_000});
    await app.press('y');
    await app.waitForText('copied enclosure 2/2 URL');
    expect(app.frames.some((frame) => frame.includes(osc52('https://cdn.example/ep2-part2.ogg')))).toBe(true);
    // Round the end, back to the first.
    await app.press('E');
    await app.waitForText('▸Enclosure 1: https://cdn.example/ep2-part1.mp3');
  });

  it('a short terminal’s brief header keeps one line for them: the chosen enclosure’s, numbered', async () => {
    const {app} = await render({columns: 120, rows: 20});
    await app.press(KEYS.enter);
    await app.waitForText('Enclosure 1/2: https://cdn.example/ep2-part1.mp3 (audio/mpeg, 5.0 MB)');
    expect(app.frame()).not.toContain('ep2-part2.ogg');
    await app.press('E');
    await app.waitForText('Enclosure 2/2: https://cdn.example/ep2-part2.ogg (audio/ogg, 4.0 MB)');
    expect(app.frame()).not.toContain('ep2-part1.mp3');
  });

  it('an article without enclosures has no enclosure line nor keys; e and y say so and run nothing', async () => {
    const {app, opened} = await render();
    await app.press(KEYS.down, KEYS.down, KEYS.enter);
    await app.waitForText('No audio');
    expect(app.frame()).not.toContain('Enclosure');
    const keys = keyLine(app.frame());
    expect(keys).toContain('o open link · n next unread');
    expect(keys).not.toContain('enclosure');
    const written = app.frames.length;
    await app.press('e');
    await app.waitForText('this article has no enclosure');
    await app.press('y');
    await app.rendered();
    expect(app.frames.slice(written).some((frame) => frame.includes('\u001b]52;'))).toBe(false);
    expect(opened()).toEqual([]);
  });
});
