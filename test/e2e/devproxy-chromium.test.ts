import {CHROMIUM_ARGS, chromiumPath} from '../../source/browser/chromium.js';
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest';
import {CHANNEL_PATH, type DevProxy, type HttpTraffic} from '../../source/devproxy/types.js';
import {startTarget, startTestProxy, type TestTarget} from '../integration/devproxy/harness.js';
import {requirePackage} from '../helpers/system-package.js';

const hasChromium = !requirePackage('chromium', {for: "the dev proxy's browser test"});

// A page script of the test's own that speaks the channel protocol: it runs, connects, says hello.
// Exec code runs in a script element carrying the script's own nonce: a strict CSP forbids eval.
const PAGE_SCRIPT = `
window.__devtoolRan = true;
const nonce = document.currentScript.nonce;
const socket = new WebSocket('ws://' + location.host + '${CHANNEL_PATH}');
socket.onopen = () => {
  socket.send(JSON.stringify({t: 'hello', session: 'chromium-tab', url: location.href, title: document.title, loadedAt: Date.now()}));
};
window.__execAnswer = (answer) => socket.send(JSON.stringify(answer));
socket.onmessage = (event) => {
  const message = JSON.parse(event.data);
  const element = document.createElement('script');
  element.nonce = nonce;
  element.textContent = 'try { window.__execAnswer({t: "result", id: ' + JSON.stringify(message.id) + ', ok: true, value: (' + message.code + ')}); }' +
    ' catch (error) { window.__execAnswer({t: "result", id: ' + JSON.stringify(message.id) + ', ok: false, error: String(error)}); }';
  document.head.append(element);
  element.remove();
};
`;

// The app's own CSP: nonce-only scripts (strict-dynamic) and connections to itself only.
const CSP = "default-src 'self'; script-src 'nonce-appnonce' 'strict-dynamic'; connect-src 'self'; object-src 'none'";
const PAGE = `<!doctype html><html><head><title>Strict app</title><script nonce="appnonce">window.__appRan = true;</script></head><body><h1>app</h1></body></html>`;

let target: TestTarget;
let proxy: DevProxy;
let browser: import('playwright-core').Browser;

describe.skipIf(!hasChromium)('the dev proxy in headless Chromium', () => {
  beforeAll(async () => {
    target = await startTarget((req, res) => {
      if (req.url === '/') {
        res.writeHead(200, {'content-type': 'text/html; charset=utf-8', 'content-security-policy': CSP});
        res.end(PAGE);
      } else {
        res.writeHead(404, {'content-type': 'text/plain'});
        res.end('missing');
      }
    });
    proxy = await startTestProxy(target.url, {}, {pageScript: PAGE_SCRIPT});
    const {chromium} = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: [...CHROMIUM_ARGS],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await proxy?.stop();
    await target?.close();
  });

  it('runs the injected script under a strict CSP, connects the channel, and answers exec', async () => {
    const page = await browser.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.goto(`${proxy.info.url}/`);
    expect(await page.evaluate(() => (window as unknown as {__appRan?: boolean}).__appRan)).toBe(true);
    expect(await page.evaluate(() => (window as unknown as {__devtoolRan?: boolean}).__devtoolRan)).toBe(true);
    await vi.waitFor(() => expect(proxy.pages()).toEqual([expect.objectContaining({session: 'chromium-tab', title: 'Strict app', connected: true})]), {timeout: 15_000});
    expect(await proxy.exec('document.title')).toEqual([{session: 'chromium-tab', url: `${proxy.info.url}/`, ok: true, value: 'Strict app'}]);
    expect(violations).toEqual([]);
    const entry = proxy.log({types: ['http']}).find((item) => (item as HttpTraffic).url === '/') as HttpTraffic;
    expect(entry.injected).toBe(true);
    await page.close();
    await vi.waitFor(() => expect(proxy.pages()[0]!.connected).toBe(false), {timeout: 15_000});
  });
});
