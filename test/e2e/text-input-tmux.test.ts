import {writeFileSync} from 'node:fs';
import http from 'node:http';
import type {AddressInfo} from 'node:net';
import {join} from 'node:path';
import {chromium, type Browser} from 'playwright-core';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {CHROMIUM_ARGS, chromiumPath} from '../../source/browser/chromium.js';
import {startFeedOrigin, type FeedOrigin} from '../../fixtures/feed-origin/server.mjs';
import {cliPath, eventually, makeSandbox, type Sandbox} from '../helpers/cli.js';
import {requirePackage} from '../helpers/system-package.js';
import {tmuxDriver} from '../helpers/tmux.js';

// The text boxes of the real program (dist/) in a real terminal (tmux): the text and Enter go in
// ONE tmux call, so the TUI reads them together, as a paste or fast typing gives them. Every
// character must reach what the box does with it (issue 26: the add box asked for /small_atom.xm).
// The feeds come from the local feed origin (fixtures/feed-origin) on 127.0.0.1.

const hasTmux = !requirePackage('tmux', {for: 'the text input end-to-end test'});
const hasChromium = hasTmux && !requirePackage('chromium', {for: "the Proxy pane's exec box end-to-end test"});
const FIXTURES = '/data/miniflux/internal/reader/parser/testdata';

let sandbox: Sandbox;
let origin: FeedOrigin;
let driver: ReturnType<typeof tmuxDriver>;
let target: http.Server;
let browser: Browser | undefined;
const session = 'wbinput';

describe.skipIf(!hasTmux)('text boxes in a real terminal (tmux): text and Enter in one read', () => {
  beforeAll(async () => {
    sandbox = makeSandbox('wb-inputtmux-');
    origin = await startFeedOrigin();
    // The Proxy pane's target: one page for a browser to open through the proxy.
    target = http.createServer((_request, response) => response.writeHead(200, {'content-type': 'text/html; charset=utf-8'}).end('<!doctype html><title>Shop</title><p>hi</p>'));
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    writeFileSync(join(sandbox.dir, '.workbench.kdl'), `proxies {\n  web {\n    target "http://127.0.0.1:${(target.address() as AddressInfo).port}"\n  }\n}\n`);
    driver = tmuxDriver(`${sandbox.dir}/tmux.sock`, session);
    const env = Object.entries({WORKBENCH_HOME: sandbox.home, XDG_CONFIG_HOME: sandbox.config, HOME: sandbox.dir, TERM: 'xterm-256color'})
      .map(([key, value]) => `${key}=${value}`)
      .join(' ');
    driver.tmux(
      'new-session',
      '-d',
      '-s',
      session,
      '-x',
      '140',
      '-y',
      '40',
      '-c',
      sandbox.dir,
      `env -u CI -u CONTINUOUS_INTEGRATION ${env} ${process.execPath} ${cliPath}; echo EXITED-$?; sleep 60`,
    );
  });

  afterAll(async () => {
    try {
      driver.tmux('kill-server');
    } catch {
      // already gone
    }
    await browser?.close();
    await origin?.close();
    target?.closeAllConnections();
    await new Promise<void>((resolve) => (target ? target.close(() => resolve()) : resolve()));
    await sandbox?.cleanup();
  });

  /** The fixture paths the origin was asked for, in the order first asked. */
  const asked = () => [...origin.hits.keys()].filter((route) => route.startsWith(FIXTURES));
  /** The text, then Enter, in one tmux call: tmux writes them to the terminal back to back. */
  const typeAndEnter = (text: string) => driver.tmux('send-keys', '-t', session, '-l', text, ';', 'send-keys', '-t', session, 'Enter');

  it.skipIf(!hasChromium)(
    'the Proxy pane exec box runs the whole code typed in the page, every time',
    async () => {
      await driver.shows('4 Proxy', 30_000);
      await driver.focus(4, 30_000);
      await driver.shows('no proxy running');
      driver.keys('s');
      await driver.shows('Start a proxy');
      driver.keys('Enter');
      await driver.shows(/started proxy web on http:\/\/127\.0\.0\.1:\d+/);
      const url = /started proxy web on (http:\/\/127\.0\.0\.1:\d+)/.exec(driver.screen())![1]!;
      browser = await chromium.launch({
        executablePath: chromiumPath(),
        args: [...CHROMIUM_ARGS],
      });
      const page = await browser.newPage();
      await page.goto(`${url}/`);
      driver.keys('p');
      await driver.shows(`${url}/  “Shop”`);
      driver.keys('p');
      await driver.shows(/GET\s+200/);
      const got = () => page.evaluate(() => (window as unknown as {got?: string}).got);
      for (let round = 1; round <= 5; round++) {
        const tag = `typed-${round}-abcdefgh`;
        await eventually(() => !driver.screen().includes('exec in web:') || undefined, 10_000);
        driver.keys('e');
        await driver.shows('exec in web:');
        typeAndEnter(`(window.got = '${tag}')`);
        // The answer (or the error of code cut short), then what the page got: the whole code ran.
        await driver.shows(new RegExp(`"${tag}"|✖`), 30_000);
        expect(await got()).toBe(tag);
        driver.keys('Escape');
      }
    },
    180_000,
  );

  it('the Feeds add box requests the whole URL typed, every time', async () => {
    await driver.shows('3 Feeds', 30_000);
    await driver.focus(3, 30_000);
    await driver.shows('no feeds yet');
    const feeds = [
      {file: 'small_atom.xml', title: 'Recent Commits to v2:main'},
      {file: 'rdf_UTF8.xml', title: 'heise online News'},
      {file: 'large_rss.xml', title: 'Artificial truth'},
    ];
    for (const {file, title} of feeds) {
      await eventually(() => !driver.screen().includes('add feed:') || undefined, 10_000);
      driver.keys('a');
      await driver.shows('add feed:');
      const before = asked().length;
      typeAndEnter(`${origin.url}${FIXTURES}/${file}`);
      // What the origin was asked for: the whole path, not one cut short.
      const path = await eventually(() => asked()[before], 30_000);
      expect(path).toBe(`${FIXTURES}/${file}`);
      await driver.shows(`subscribed: ${title}`, 30_000);
    }
    expect(asked()).toEqual(feeds.map(({file}) => `${FIXTURES}/${file}`));
    driver.keys('q');
    await driver.shows('EXITED-0', 15_000);
  }, 180_000);
});
