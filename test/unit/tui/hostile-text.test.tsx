import {writeFileSync} from 'node:fs';
import {createServer, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import {join} from 'node:path';
import {afterEach, describe, expect, it, vi} from 'vitest';
import {cleanup} from 'ink-testing-library';
import {openReader} from '../../../source/feeds/client/connect.js';
import type {ReaderService} from '../../../source/feeds/contracts.js';
import {getErrors} from '../../../source/tools/get-errors.js';
import {feedsPane} from '../../../source/tui/panes/feeds/FeedsPane.js';
import {startInProcessDaemon, type InProcessDaemon} from './daemonHarness.js';
import {KEYS, renderApp} from './renderApp.js';
import {selectIncidentRow} from './selectIncidentRow.js';

// Text from outside — a feed's title, a process's id and command, an error a program printed —
// reaches the terminal with no control character: a terminal obeys what it is sent, and this text
// would write the clipboard (OSC 52), clear the screen and set the window title.

const HOSTILE_TITLE = '\x1b]52;c;ZXZpbA==\x07\x1b[2J\x1b]0;pwned\x07Hello';

let daemon: InProcessDaemon | undefined;
let origin: Server | undefined;

afterEach(async () => {
  cleanup();
  await daemon?.close();
  await new Promise<void>((resolve) => (origin ? origin.close(() => resolve()) : resolve()));
  daemon = undefined;
  origin = undefined;
});

/**
 * What must never be in a drawn frame: BEL, any escape that is not one of ink's own colour (SGR)
 * sequences — OSC (clipboard, title), clears, cursor moves —, C1 controls and bidi overrides.
 */
function expectTerminalSafe(raw: string): void {
  expect(raw).not.toContain('\x07');
  expect(raw).not.toContain('\x1b]');
  expect(raw).not.toContain('\x1b[2J');
  const withoutColours = raw.replace(/\x1b\[[0-9;]*m/g, '');
  expect(withoutColours).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
}

/** A JSON Feed on 127.0.0.1 (JSON carries control characters as `\u001b`; XML 1.0 cannot). */
async function serveFeed(): Promise<string> {
  const feed = {
    version: 'https://jsonfeed.org/version/1.1',
    title: HOSTILE_TITLE,
    items: [{id: '1', title: '\x1b[2J\x1b]0;owned\x07First \u202epost', author: {name: '\x1b]52;c;QUJD\x07Ada'}, content_text: 'body', date_published: new Date().toISOString()}],
  };
  origin = createServer((_request, response) => {
    response.writeHead(200, {'content-type': 'application/feed+json'}).end(JSON.stringify(feed));
  });
  await new Promise<void>((resolve) => origin!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(origin.address() as AddressInfo).port}/feed.json`;
}

describe('text from outside on the TUI', () => {
  it('shows a feed titled with OSC 52, a clear and a title escape as its text only', async () => {
    const url = await serveFeed();
    let reader: ReaderService | undefined;
    daemon = await startInProcessDaemon({openReader: async () => (reader ??= await openReader({db: join(daemon!.dir, 'reader.sqlite')}))});
    const service = await daemon.ports.feeds.reader();
    const result = await service.subscribe(url);
    if (!('feed' in result)) throw new Error(`not subscribed: ${JSON.stringify(result)}`);
    // The store keeps what the feed said; only what is drawn is cleaned.
    expect((await service.listFeeds())[0]!.title).toBe(HOSTILE_TITLE);

    const app = await renderApp(daemon.ports, {columns: 120, rows: 30}, {panes: [feedsPane], title: 'workbench'});
    await app.waitFor((frame) => /^│ {4}1 {3}Hello\s/m.test(frame), 'the feed row');
    await app.waitForText('First post');
    // The selected feed's title heads the articles column too.
    await app.press(KEYS.down);
    await app.waitForText('Hello · 1 unread');
    expectTerminalSafe(app.lastFrame() ?? '');
    expect(app.frame()).not.toMatch(/pwned|owned|ZXZpbA|QUJD/);
  });

  it('shows a process command holding escapes, and an error with control characters, as text only', async () => {
    daemon = await startInProcessDaemon();
    // The program prints a TypeError whose message holds C1 controls and a right-to-left override
    // (the scanner's ANSI stripper leaves those), then waits: the inbox holds that one alert.
    writeFileSync(join(daemon.project, 'evil.mjs'), `console.error('TypeError: cannot read \\u0085this\\u008d \\u202eweird\\u202c value'); setInterval(() => {}, 1000);`);
    // The command carries a title escape and a clear, in a shell comment.
    await daemon.run('exec node evil.mjs # \x1b]0;pwned\x07\x1b[2Jmarker', 'evil');
    const errors = await vi.waitFor(
      async () => {
        const found = await getErrors({limit: 200, include_warnings: true}, daemon!.context);
        if (!found.some((entry) => entry.category === 'TypeError')) throw new Error(`no TypeError yet: ${JSON.stringify(found)}`);
        return found;
      },
      {timeout: 10_000, interval: 25},
    );
    // What the inbox holds, unchanged: the controls are there to be dropped when drawn.
    const typeError = errors.find((entry) => entry.category === 'TypeError')!;
    expect(typeError.message).toMatch(/\u0085this\u008d \u202eweird/);

    const app = await renderApp(daemon.ports);
    await app.waitFor((frame) => /▸ evil\s+running/.test(frame), 'the process row');
    await app.waitForText('evil · exec node evil.mjs # marker ·');
    await app.waitFor((frame) => /✖.*process:evil\s+TypeError\s+cannot read this weird value/.test(frame), 'the incident row');
    expectTerminalSafe(app.lastFrame() ?? '');
    expect(app.frame()).not.toContain('pwned');

    // The detail view shows the whole message, as safe.
    await app.press('2');
    await app.waitForFocus(2);
    await selectIncidentRow(app, /TypeError\s+cannot read this weird value/);
    await app.press(KEYS.enter);
    await app.waitFor((frame) => /source\s+process:evil/.test(frame), 'the detail');
    expectTerminalSafe(app.lastFrame() ?? '');
  });
});
