import {writeFileSync} from 'node:fs';
import http, {type IncomingMessage, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {cleanup} from 'ink-testing-library';
import {chromium, type Browser} from 'playwright-core';
import {startInProcessDaemon, type InProcessDaemon} from './daemonHarness.js';
import {KEYS, renderApp} from './renderApp.js';
import {CHROMIUM_ARGS, chromiumPath} from '../../../source/browser/chromium.js';
import {requirePackage} from '../../helpers/system-package.js';

// The Proxy pane over the real port, a real daemon, a real proxy and a real target on 127.0.0.1:
// requests sent through the proxy with fetch show up in the pane as the daemon's `traffic` events
// arrive; a real headless Chromium is the page for `exec` and the pages view.

// Colours on, before ink loads: the status classes show only as colours.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});

const hasChromium = !requirePackage('chromium', {for: "the Proxy pane's exec and pages tests"});

const PAGE = '<!doctype html><html><head><title>Shop</title></head><body><h1>Shop</h1></body></html>';

function answer(request: IncomingMessage, response: ServerResponse): void {
  const path = new URL(request.url ?? '/', 'http://x').pathname;
  if (path === '/') {
    response.writeHead(200, {'content-type': 'text/html; charset=utf-8'}).end(PAGE);
  } else if (path === '/api/items') {
    response.writeHead(200, {'content-type': 'application/json', 'x-served-by': 'target'}).end(JSON.stringify({items: [1, 2, 3]}));
  } else if (path === '/api/boom') {
    response.writeHead(500, {'content-type': 'application/json'}).end(JSON.stringify({message: 'database down'}));
  } else if (path === '/favicon.ico') {
    response.writeHead(204).end();
  } else if (path === '/old') {
    response.writeHead(302, {location: '/'}).end();
  } else if (path === '/hostile') {
    response.writeHead(200, {'content-type': 'text/plain', 'x-evil': 'a\u009b2Jb'}).end('before\u001b[2Jafter\u001b]52;c;ZXZpbA==\u0007end');
  } else {
    response.writeHead(404, {'content-type': 'text/plain'}).end('not found');
  }
}

let daemon: InProcessDaemon;
let target: http.Server;
let targetUrl: string;
let browser: Browser | undefined;

beforeEach(async () => {
  daemon = await startInProcessDaemon();
  target = http.createServer(answer);
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
});

afterEach(async () => {
  cleanup();
  await browser?.close();
  browser = undefined;
  await daemon.close();
  target.closeAllConnections();
  await new Promise<void>((resolve) => target.close(() => resolve()));
});

/** The app with the Proxy pane focused (the fourth tab) and zoomed to the whole screen. */
async function openPane(size = {columns: 120, rows: 40}) {
  const app = await renderApp(daemon.ports, size);
  await app.press('4', '+');
  await app.waitFor((frame) => !frame.includes('3 Feeds'), 'the Proxy pane zoomed');
  return app;
}

function configure(proxies: string): void {
  writeFileSync(join(daemon.project, '.workbench.kdl'), `proxies {\n${proxies}\n}\n`);
}

describe('the Proxy pane', () => {
  it('says no proxy runs, and starts one from .workbench.kdl with s', async () => {
    configure(`  web {\n    target "${targetUrl}"\n  }`);
    const app = await openPane();
    await app.waitForText('no proxy running · s starts one from .workbench.kdl');
    await app.press('s');
    await app.waitForText('Start a proxy');
    await app.waitForText(`web     → ${targetUrl}`);
    await app.press(KEYS.enter);
    await app.waitForText(/started proxy web on http:\/\/127\.0\.0\.1:\d+/);
    const [info] = await daemon.ports.proxies.list();
    expect(info).toMatchObject({id: 'web', target: targetUrl});
    await app.waitForText(`${info!.url} → ${targetUrl}`);
    await app.waitForText(`no requests yet · open ${info!.url}`);
    await app.press('+');
    await app.waitForText('4 Proxy (1)');
  });

  it('keeps an Enter typed before the picker has loaded: s and Enter in one read start the proxy', async () => {
    configure(`  web {\n    target "${targetUrl}"\n  }`);
    const app = await openPane();
    await app.waitForText('no proxy running · s starts one from .workbench.kdl');
    // One write: the picker opens and asks the daemon for .workbench.kdl; Enter arrives before the answer.
    app.stdin.write(`s${KEYS.enter}`);
    await app.waitForText(/started proxy web on http:\/\/127\.0\.0\.1:\d+/);
    expect((await daemon.ports.proxies.list()).map((info) => info.id)).toEqual(['web']);
  });

  it('lists each request live as it passes: method, status, path, duration, size, newest at the bottom', async () => {
    const app = await openPane();
    const info = await daemon.ports.proxies.start({id: 'web', target: targetUrl});
    await app.waitForText(`no requests yet · open ${info.url}`);
    for (const path of ['/api/items', '/api/boom', '/missing', '/old']) await fetch(`${info.url}${path}`, {redirect: 'manual'}).then((response) => response.arrayBuffer());
    await app.waitForText('/old');
    const rows = app.frame().split('\n');
    const order = ['/api/items', '/api/boom', '/missing', '/old'].map((path) => rows.findIndex((row) => new RegExp(`\\s${path}\\s`).test(row)));
    expect(
      order.every((index, at) => index > 0 && (at === 0 || index > order[at - 1]!)),
      `rows in order: ${order.join(',')}`,
    ).toBe(true);
    expect(app.line('/api/items')).toMatch(/GET\s+200\s+\/api\/items\s+\d+ms\s+17B/);
    expect(app.line('/api/boom')).toMatch(/GET\s+500\s+\/api\/boom/);
    expect(app.line('/missing')).toMatch(/GET\s+404\s+\/missing/);
    expect(app.line('/old')).toMatch(/GET\s+302\s+\/old/);
    expect(app.frame()).toContain('4 requests · 2 failed');
    // Coloured by class: the 500 red, the 404 yellow, the 200 green.
    const raw = app.lastFrame() ?? '';
    expect(raw).toMatch(/\u001b\[31m[^\n]*500/);
    expect(raw).toMatch(/\u001b\[33m[^\n]*404/);
    expect(raw).toMatch(/\u001b\[32m[^\n]*200/);
  });

  it('filters by status class with f, by type with t, by path with /, and esc clears', async () => {
    const app = await openPane();
    const info = await daemon.ports.proxies.start({id: 'web', target: targetUrl});
    for (const path of ['/api/items', '/api/boom', '/missing']) await fetch(`${info.url}${path}`).then((response) => response.arrayBuffer());
    await app.waitForText('/missing');
    await app.press('f', 'f', 'f', 'f');
    await app.waitForText('status 5xx');
    expect(app.frame()).toContain('/api/boom');
    expect(app.frame()).not.toContain('/api/items');
    expect(app.frame()).not.toContain('/missing');
    await app.press('f', 'f');
    await app.waitForText('status errors');
    expect(app.frame()).toContain('/api/boom');
    expect(app.frame()).toContain('/missing');
    expect(app.frame()).not.toContain('/api/items');
    await app.press(KEYS.escape);
    await app.waitFor((frame) => !frame.includes('status errors') && frame.includes('/api/items'), 'filters cleared');
    await app.press('/', 'items\r');
    await app.waitForText('filter: items');
    expect(app.frame()).toContain('/api/items');
    expect(app.frame()).not.toContain('/api/boom');
    await app.press(KEYS.escape);
    await app.press('t', 't');
    await app.waitForText('type error');
    await app.waitForText('nothing matches the filters');
  });

  it('shows a request the target never answered as ERR with the reason, under the failed filter', async () => {
    // A port that was free a moment ago: nothing listens there.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const downUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const app = await openPane();
    const info = await daemon.ports.proxies.start({id: 'down', target: downUrl});
    const answer = await fetch(`${info.url}/api/items`);
    expect(answer.status).toBe(502);
    await answer.arrayBuffer();
    await app.waitForText(/GET\s+ERR\s+\/api\/items\s+\(.*ECONNREFUSED/);
    expect(app.lastFrame() ?? '').toMatch(/\u001b\[35m[^\n]*ERR/);
    await app.press('f', 'f', 'f', 'f', 'f');
    await app.waitForText('status failed');
    expect(app.frame()).toMatch(/GET\s+ERR\s+\/api\/items/);
    await app.press(KEYS.enter);
    await app.waitForText(/no answer from the target: .*ECONNREFUSED/);
  });

  it('opens a request with enter: request and response headers and the first part of the bodies', async () => {
    const app = await openPane();
    const info = await daemon.ports.proxies.start({id: 'web', target: targetUrl});
    await fetch(`${info.url}/api/boom`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({order: 42})}).then((response) =>
      response.arrayBuffer(),
    );
    await app.waitForText('/api/boom');
    await app.press(KEYS.enter);
    await app.waitForText('Response headers');
    const frame = app.frame();
    expect(frame).toContain('POST /api/boom');
    expect(frame).toContain('Request headers');
    expect(frame).toMatch(/content-type:\s+application\/json/);
    expect(frame).toContain('{"order":42}');
    expect(frame).toContain('{"message":"database down"}');
    expect(frame).toMatch(/trace\s+[0-9a-f]{32}/);
    await app.press(KEYS.escape);
    await app.waitFor((current) => !current.includes('Response headers') && current.includes('POST    500'), 'back to the list');
  });

  it('stops following when scrolled up and marks what arrives meanwhile; G follows again', async () => {
    const app = await openPane();
    const info = await daemon.ports.proxies.start({id: 'web', target: targetUrl});
    for (const path of ['/a1', '/a2']) await fetch(`${info.url}${path}`).then((response) => response.arrayBuffer());
    await app.waitForText('/a2');
    expect(app.frame()).toContain('following');
    await app.press(KEYS.up);
    await app.waitForText('paused · G/end follows');
    await fetch(`${info.url}/a3`).then((response) => response.arrayBuffer());
    await app.waitForText('↓ 1 new · G/end follows');
    await app.press('G');
    await app.waitFor((frame) => frame.includes('following') && !frame.includes('new ·') && frame.includes('/a3'), 'following again');
  });

  it('draws what the target sends terminal-safe: no escape sequence from a header or a body reaches the terminal', async () => {
    const app = await openPane();
    const info = await daemon.ports.proxies.start({id: 'web', target: targetUrl});
    await fetch(`${info.url}/hostile`).then((response) => response.arrayBuffer());
    await app.waitForText('/hostile');
    await app.press(KEYS.enter);
    await app.waitForText('Response body (first part)');
    await app.waitForText('beforeafterend');
    const raw = app.lastFrame() ?? '';
    expect(raw).not.toContain('\u001b]');
    expect(raw).not.toContain('\u001b[2J');
    expect(raw).not.toContain('\u0007');
    expect(app.frame()).toMatch(/x-evil:\s+ab/);
  });

  it('exec with no page connected says so, clearly', async () => {
    const app = await openPane();
    await daemon.ports.proxies.start({id: 'web', target: targetUrl});
    await app.waitForText('no requests yet');
    await app.press('e');
    await app.waitForText('exec in web:');
    // The code and Enter in one read: the whole code is what runs (issue 26: document.title.lengt).
    await app.press('document.title.length\r');
    await app.waitForText('✖ no page is connected to proxy web; open http://127.0.0.1:');
    expect(app.frame()).toMatch(/› document\.title\.length\s/);
    await app.press(KEYS.escape);
    await app.waitForText('no requests yet');
  });

  it('stops the proxy shown with x', async () => {
    const app = await openPane();
    await daemon.ports.proxies.start({id: 'web', target: targetUrl});
    await app.waitForText('no requests yet');
    await app.press('x');
    await app.waitForText('stopped proxy web');
    await app.waitForText('no proxy running');
    expect(await daemon.ports.proxies.list()).toEqual([]);
  });

  it('says why a proxy from .workbench.kdl did not start', async () => {
    const info = await daemon.ports.proxies.start({id: 'web', target: targetUrl});
    configure(`  other {\n    target "${targetUrl}"\n  }`);
    const app = await openPane();
    await app.waitForText(info.url);
    // The same id again: the daemon refuses, the pane says so in a line.
    writeFileSync(join(daemon.project, '.workbench.kdl'), `proxies {\n  web {\n    target "${targetUrl}"\n  }\n}\n`);
    await app.press('s');
    await app.waitForText('Start a proxy');
    await app.waitForText(/web\s+→ \S+ running/);
    await app.press(KEYS.enter);
    await app.waitForText(/start web failed: /);
  });

  it.skipIf(!hasChromium)('shows the page sessions of a real browser and runs exec in them, the answer as JSON', async () => {
    const app = await openPane();
    const info = await daemon.ports.proxies.start({id: 'web', target: targetUrl});
    browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: [...CHROMIUM_ARGS],
    });
    const page = await browser.newPage();
    await page.goto(`${info.url}/`);
    await app.press('p');
    await app.waitForText(`${info.url}/  “Shop”`);
    await app.waitForText('0 errors · 0 failed requests');
    await page.evaluate(() => fetch('/missing'));
    await app.waitForText('1 failed request');
    await app.press('p', 'e', '({title: document.title, n: [1, 2]})\r');
    await app.waitForText('"title": "Shop",');
    expect(app.frame()).toContain('"n": [');
    await app.press(KEYS.escape, 'e', ...'nope.x', KEYS.enter);
    await app.waitForText('✖ the code threw:');
    expect(app.frame()).toMatch(/ReferenceError|nope is not defined/);
    // A value with a cycle still comes back as JSON.
    await app.press(KEYS.escape, 'e', ...'(() => { const a = {name: "loop"}; a.self = a; return a; })()', KEYS.enter);
    await app.waitForText('"name": "loop",');

    // A thrown error in the page is a row of its own; enter shows its message, page and stack.
    await app.press(KEYS.escape);
    await page.evaluate(() => setTimeout(() => (null as unknown as {cart: number}).cart));
    await app.waitForText(/JS\s+(Uncaught )?TypeError: Cannot read properties of null/);
    await app.press('t', 't');
    await app.waitForText('type error');
    await app.press(KEYS.enter);
    await app.waitForText('TypeError in the page');
    expect(app.frame()).toMatch(/page\s+http:\/\/127\.0\.0\.1:\d+\//);
    expect(app.frame()).toContain('Stack');
  });

  it('lists its keys in the ? help and the next useful ones in the status bar', async () => {
    const app = await openPane();
    await daemon.ports.proxies.start({id: 'web', target: targetUrl});
    await app.waitForText('enter detail  f status  t type  / filter  p pages  e exec  s start  x stop');
    await app.press('?');
    await app.waitForText('Keys — Proxy');
    for (const text of [
      'status filter: all, 2xx, 3xx, 4xx, 5xx',
      'type filter: all, http, error',
      'run JavaScript in the connected pages',
      'the browser pages on this proxy',
      'start a proxy of .workbench.kdl',
    ]) {
      await app.waitForText(text);
    }
  });
});
