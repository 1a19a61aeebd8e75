import type {Browser, Page} from 'playwright-core';
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi} from 'vitest';
import {channelPage, countSocketsScript, twicePage} from './fixtures.js';
import {FixtureServer, hasChromium, launchChromium} from './harness.js';

const waitFor = <T>(check: () => T) => vi.waitFor(check, {timeout: 15_000, interval: 50});

describe.skipIf(!hasChromium)('the page channel, from a real page in headless Chromium', () => {
  let browser: Browser;
  let server: FixtureServer;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    server = new FixtureServer({
      '/app': {html: channelPage},
      '/twice': {html: twicePage.replace('<head>', `${countSocketsScript}<head>`), inject: 'twice'},
      '/strict': {html: channelPage, csp: "default-src 'self'; script-src 'nonce-n0nce'; style-src 'self'"},
    });
    await server.start();
    page = await browser.newPage();
  });
  afterEach(async () => {
    await page?.close();
    await server?.close();
    expect(server.invalid).toEqual([]);
  });

  async function openApp(path = '/app') {
    await page.goto(`${server.origin}${path}`);
    await waitFor(() => expect(server.messages('hello').length).toBeGreaterThan(0));
    return server.messages('hello')[0];
  }

  it('says hello with a session, the URL, title, load time and user agent', async () => {
    const hello = await openApp();
    expect(hello.session).toMatch(/^[0-9a-f]{24}$/);
    expect(hello.url).toBe(`${server.origin}/app`);
    expect(hello.title).toBe('Channel fixture');
    expect(hello.loadedAt).toBeGreaterThan(Date.now() - 60_000);
    expect(hello.userAgent).toMatch(/Chrome/);
  });

  it('keeps the session across a reload of the tab', async () => {
    const first = await openApp();
    await page.reload();
    await waitFor(() => expect(server.messages('hello')).toHaveLength(2));
    expect(server.messages('hello')[1].session).toBe(first.session);
  });

  it('reports pushState, replaceState, popstate and hash navigations', async () => {
    await openApp();
    await page.evaluate(() => history.pushState({}, '', '/app/orders?id=7'));
    await waitFor(() => expect(server.messages('navigate').map((message) => message.url)).toEqual([`${server.origin}/app/orders?id=7`]));
    await page.evaluate(() => history.replaceState({}, '', '/app/orders?id=8'));
    await waitFor(() => expect(server.messages('navigate').at(-1)?.url).toBe(`${server.origin}/app/orders?id=8`));
    await page.evaluate(() => (location.hash = 'details'));
    await waitFor(() => expect(server.messages('navigate').at(-1)?.url).toBe(`${server.origin}/app/orders?id=8#details`));
    await page.evaluate(() => history.back());
    await waitFor(() => expect(server.messages('navigate').at(-1)?.url).toBe(`${server.origin}/app/orders?id=8`));
    expect(server.messages('navigate').at(-1)?.title).toBe('Channel fixture');
  });

  it('reports an uncaught error with its class, stack and page URL', async () => {
    await openApp();
    await page.evaluate(() => {
      setTimeout(function checkout() {
        throw new TypeError('cart is undefined');
      });
    });
    await waitFor(() => expect(server.messages('error')).toHaveLength(1));
    const [error] = server.messages('error');
    expect(error.message).toContain('cart is undefined');
    expect(error.category).toBe('TypeError');
    expect(error.stack).toContain('checkout');
    expect(error.url).toBe(`${server.origin}/app`);
  });

  it('still reports errors when the page sets window.onerror to its own handler or to null', async () => {
    await openApp();
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as {seen: string[]}).seen = seen;
      window.onerror = (message) => {
        seen.push(String(message));
        return true;
      };
      setTimeout(() => {
        throw new Error('with the page handler');
      });
    });
    await waitFor(() => expect(server.messages('error').map((error) => error.message)).toEqual([expect.stringContaining('with the page handler')]));
    // The page's own handler still ran: we do not take window.onerror away from it.
    expect(await page.evaluate(() => (window as unknown as {seen: string[]}).seen)).toEqual([expect.stringContaining('with the page handler')]);
    await page.evaluate(() => {
      window.onerror = null;
      setTimeout(() => {
        throw new Error('with onerror cleared');
      });
    });
    await waitFor(() => expect(server.messages('error').at(-1)?.message).toContain('with onerror cleared'));
  });

  it('reports unhandled rejections: an Error keeps its class and stack, anything else is described', async () => {
    await openApp();
    await page.evaluate(() => {
      void Promise.reject(new RangeError('page 0 of 3'));
      void Promise.reject({code: 42});
    });
    await waitFor(() => expect(server.messages('error')).toHaveLength(2));
    const [error, other] = server.messages('error');
    expect(error).toMatchObject({category: 'RangeError', message: expect.stringContaining('page 0 of 3'), stack: expect.stringContaining('RangeError')});
    expect(other).toMatchObject({category: 'UnhandledRejection', message: expect.stringContaining('{"code":42}')});
  });

  it('sends __devtool.log messages with level and JSON-safe data, and refuses a bad level', async () => {
    await openApp();
    const answers = await page.evaluate(() => {
      const devtool = (window as unknown as {__devtool: Record<string, (...args: unknown[]) => unknown>}).__devtool;
      const data: Record<string, unknown> = {order: 7, when: new Date(0)};
      data.self = data;
      return [devtool.log('error', 'payment failed', data), devtool.log('warn', 'slow'), devtool.log('loud', 'x'), devtool.log()];
    });
    expect(answers[0]).toEqual({sent: true});
    expect(answers[2]).toEqual({error: expect.stringContaining('level must be one of error, warn, info, log, debug')});
    expect(answers[3]).toHaveProperty('error');
    await waitFor(() => expect(server.messages('log')).toHaveLength(2));
    const [failed, slow] = server.messages('log');
    expect(failed).toMatchObject({level: 'error', message: 'payment failed', data: {order: 7, when: '1970-01-01T00:00:00.000Z', self: '[Circular]'}, url: `${server.origin}/app`});
    expect(slow).toMatchObject({level: 'warn', message: 'slow'});
  });

  it('throttles interactions: a burst of clicks in one task sends at most two (leading and trailing)', async () => {
    await openApp();
    await page.evaluate(() => {
      for (let index = 0; index < 20; index++) document.getElementById('go')!.click();
    });
    await waitFor(() => expect(server.messages('interaction')).toHaveLength(2));
    expect(server.messages('interaction').map((message) => message.kind)).toEqual(['click', 'click']);
    // A round trip after the trailing one: nothing else was queued behind it.
    expect((await server.exec('1')).ok).toBe(true);
    expect(server.messages('interaction')).toHaveLength(2);
  });

  describe('exec', () => {
    it('returns the value of an expression', async () => {
      await openApp();
      expect(await server.exec('document.title')).toMatchObject({ok: true, value: 'Channel fixture'});
      expect(await server.exec('document.title;')).toMatchObject({ok: true, value: 'Channel fixture'});
      expect(await server.exec('document.title // the title')).toMatchObject({ok: true, value: 'Channel fixture'});
      expect(await server.exec('({a: 1, list: [1, 2]})')).toMatchObject({ok: true, value: {a: 1, list: [1, 2]}});
    });

    it('runs statements, returning what `return` gives', async () => {
      await openApp();
      expect(await server.exec('const n = 21;\nreturn n * 2;')).toMatchObject({ok: true, value: 42});
      expect(await server.exec('let x = 1; x++')).toMatchObject({ok: true});
    });

    it('awaits promises and await', async () => {
      await openApp();
      expect(await server.exec('new Promise((resolve) => setTimeout(() => resolve("later"), 20))')).toMatchObject({ok: true, value: 'later'});
      expect(await server.exec('await Promise.resolve(5)')).toMatchObject({ok: true, value: 5});
      expect(await server.exec('const r = await fetch(location.href); return r.status')).toMatchObject({ok: true, value: 200});
    });

    it('reports a thrown error, a rejection and a syntax error as {ok: false, error}', async () => {
      await openApp();
      expect(await server.exec('throw new TypeError("no cart")')).toMatchObject({ok: false, error: 'TypeError: no cart'});
      expect(await server.exec('Promise.reject(new Error("async no"))')).toMatchObject({ok: false, error: 'Error: async no'});
      expect(await server.exec('if (')).toMatchObject({ok: false, error: expect.stringContaining('SyntaxError')});
      expect(await server.exec('throw {code: 1}')).toMatchObject({ok: false, error: 'thrown: {"code":1}'});
    });

    it('answers JSON-safe values: cycles, functions, BigInt, DOM nodes, NaN, errors', async () => {
      await openApp();
      const result = await server.exec(
        'const o = {name: "x", n: 10n, f: function named() {}, nan: NaN, body: document.body, list: document.querySelectorAll("h1"), error: new RangeError("r"), gone: undefined}; o.self = o; return o',
      );
      expect(result.ok).toBe(true);
      expect(result.value).toMatchObject({
        name: 'x',
        n: '10n',
        f: '[Function named]',
        nan: 'NaN',
        self: '[Circular]',
        body: {node: 'element', tag: 'body', selector: 'body'},
        list: [{node: 'element', tag: 'h1', text: 'Channel'}],
        error: {name: 'RangeError', message: 'r'},
      });
      expect(result.value).not.toHaveProperty('gone');
    });

    it('caps a huge answer below the channel frame limit', async () => {
      await openApp();
      const result = await server.exec('Array.from({length: 900}, (_, i) => "x".repeat(1000) + i)');
      expect(result.ok).toBe(true);
      const value = result.value as string[];
      expect(JSON.stringify(value).length).toBeLessThan(256 * 1024);
      expect(value.at(-1)).toBe('[Truncated]');
    });

    it('answers a promise that never settles with a timeout error when the proxy gives a timeout', async () => {
      await openApp();
      expect(await server.exec('new Promise(() => {})', 300)).toMatchObject({ok: false, error: 'Error: exec timed out after 300 ms'});
    });

    it('awaits the wait primitives', async () => {
      await openApp();
      await page.evaluate(() => setTimeout(() => document.body.insertAdjacentHTML('beforeend', '<div id="late">late</div>'), 100));
      expect(await server.exec('__devtool.waitForElement("#late", 10000)')).toMatchObject({ok: true, value: {found: true, element: {id: 'late', text: 'late'}}});
      expect(await server.exec('__devtool.waitForElement("#never", 50)')).toMatchObject({ok: true, value: {error: expect.stringContaining('within 50 ms')}});
    });
  });

  it('reconnects after the proxy restarts, says hello again with the same session, and sends what was queued meanwhile', async () => {
    const first = await openApp();
    const port = server.port;
    await server.stop();
    await page.evaluate(() => (window as unknown as {__devtool: {log: (...args: unknown[]) => unknown}}).__devtool.log('warn', 'while the proxy was down'));
    await server.start(port);
    await waitFor(() => expect(server.messages('hello')).toHaveLength(2));
    expect(server.messages('hello')[1].session).toBe(first.session);
    await waitFor(() => expect(server.messages('log').map((log) => log.message)).toEqual(['while the proxy was down']));
    // The queued log came after the new hello, on the new connection.
    const reconnect = server.received.find((entry) => entry.message.t === 'hello' && entry.connection > 1)!;
    const queued = server.received.find((entry) => entry.message.t === 'log')!;
    expect(queued.connection).toBe(reconnect.connection);
    expect(server.received.indexOf(queued)).toBeGreaterThan(server.received.indexOf(reconnect));
    expect(await server.exec('document.title')).toMatchObject({ok: true, value: 'Channel fixture'});
  });

  it('survives a runaway page: 10,000 errors are capped per second and the dropped ones are counted in one warn', async () => {
    await openApp();
    const started = Date.now();
    await page.evaluate(() => {
      for (let index = 0; index < 10_000; index++) window.dispatchEvent(new ErrorEvent('error', {message: `flood ${index}`, error: new Error(`flood ${index}`)}));
    });
    const dropped = () =>
      server
        .messages('log')
        .map((log) => /dropped (\d+) error\/log/.exec(log.message)?.[1])
        .filter((count) => count !== undefined)
        .reduce((sum, count) => sum + Number(count), 0);
    await waitFor(() => expect(server.messages('error').length + dropped()).toBe(10_000));
    // At most 50 a second went through (the flood lasted at most as many seconds as this test ran, plus one).
    expect(server.messages('error').length).toBeLessThanOrEqual(50 * (Math.ceil((Date.now() - started) / 1000) + 1));
    expect(server.messages('log').every((log) => log.level === 'warn')).toBe(true);
    // The tab still answers.
    expect(await server.exec('1 + 1')).toMatchObject({ok: true, value: 2});
  });

  it('works under a strict CSP that allows its nonce: it connects and reports; exec says eval is forbidden and why', async () => {
    await openApp('/strict');
    expect(await page.evaluate(() => (window as unknown as {__devtool: {getContrast: (selector: string) => unknown}}).__devtool.getContrast('h1'))).toMatchObject({ratio: 21});
    await page.evaluate(() => void Promise.reject(new Error('under CSP')));
    await waitFor(() => expect(server.messages('error').map((error) => error.message)).toEqual([expect.stringContaining('under CSP')]));
    expect(await server.exec('document.title')).toMatchObject({ok: false, error: expect.stringContaining("exec needs 'unsafe-eval' in script-src")});
  });

  it('runs once when included twice: one socket, one __devtool, history wrapped once', async () => {
    await page.goto(`${server.origin}/twice`);
    await waitFor(() => expect(server.messages('hello')).toHaveLength(1));
    expect(await page.evaluate(() => (window as unknown as {__sockets: number}).__sockets)).toBe(1);
    await page.evaluate(() => history.pushState({}, '', '/twice/next'));
    await waitFor(() => expect(server.messages('navigate')).toHaveLength(1));
    expect((await server.exec('1')).ok).toBe(true);
    expect(server.messages('navigate')).toHaveLength(1);
    expect(server.openSockets).toBe(1);
  });
});
