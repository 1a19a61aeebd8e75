import {cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import type {Browser, Page} from 'playwright-core';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {launchChromium} from '../../source/browser/chromium.js';
import type {ProxyInfo} from '../../source/devproxy/types.js';
import type {UnifiedError} from '../../source/incidents/types.js';
import {requirePackage} from '../helpers/system-package.js';
import {makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';
import {startTargetApp, type TargetApp} from '../helpers/target-app.js';

// The dev proxy end to end, as a developer uses it: the daemon's proxy (started by the CLI) in
// front of a real Vite dev server and of a plain app, real headless Chromium loading pages
// through it, and the inbox read by `workbench get-errors --raw` — no layer faked.

const FIXTURE = fileURLToPath(new URL('../../fixtures/vite-app', import.meta.url));
const run = !requirePackage('chromium', {for: 'the dev proxy end-to-end tests'});

let sandbox: Sandbox;
let browser: Browser;
const cli = (args: string[]) => runCli(args, {env: sandbox.env, timeoutMs: 60_000});

async function startProxy(id: string, target: string): Promise<ProxyInfo> {
  const started = await cli(['proxy', 'start', id, '--target', target, '--json']);
  expect(started.code, started.stderr).toBe(0);
  return JSON.parse(started.stdout) as ProxyInfo;
}

async function errors(proxyId: string): Promise<UnifiedError[]> {
  const result = await cli(['get-errors', '--raw', '--proxy-id', proxyId]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as UnifiedError[];
}

async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await read();
    if (accept(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${what}: not seen within ${timeoutMs} ms; last: ${JSON.stringify(last)}`);
}

describe.runIf(run)('the dev proxy in front of real apps, in headless Chromium', {timeout: 240_000}, () => {
  beforeAll(async () => {
    sandbox = makeSandbox('wb-devproxy-e2e-');
    expect((await cli(['daemon', 'start'])).code).toBe(0);
    browser = await launchChromium({timeoutMs: 60_000});
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await cli(['daemon', 'stop']);
    await sandbox?.cleanup();
  });

  describe('a plain app', () => {
    let target: TargetApp;
    let page: Page;

    beforeAll(async () => {
      target = await startTargetApp();
    });
    afterAll(async () => {
      await page?.close();
      await target?.close();
    });

    it('instruments the page: __devtool with ≥ 50 functions, exec answers document.title, a JSON 500 is a proxy:http error and the missing favicon is not', async () => {
      const proxy = await startProxy('plain', target.url);
      page = await browser.newPage();
      await page.goto(`${proxy.url}/`);
      expect(await page.locator('h1').textContent()).toBe('hello from the target');
      const functions = await page.evaluate(
        () => Object.values((window as unknown as {__devtool: Record<string, unknown>}).__devtool).filter((value) => typeof value === 'function').length,
      );
      expect(functions).toBeGreaterThanOrEqual(50);

      const pages = await eventually(
        async () => JSON.parse((await cli(['currentpage', 'plain', '--json'])).stdout) as Array<{id: string; pages: Array<{url: string; title: string}>}> | Array<{url: string}>,
        (value) => JSON.stringify(value).includes('Target app'),
        'the page in currentpage',
      );
      expect(JSON.stringify(pages)).toContain(`${proxy.url}/`);
      const title = await cli(['proxy', 'exec', 'plain', '--code', 'document.title', '--json']);
      expect(title.code, title.stderr).toBe(0);
      expect(JSON.parse(title.stdout)).toEqual([expect.objectContaining({ok: true, value: 'Target app'})]);

      // The page calls an API that fails, and the browser asks for /favicon.ico (a 404).
      await page.evaluate(() => fetch('/api/boom').then((response) => response.status));
      await page.evaluate(() => fetch('/favicon.ico').then((response) => response.status));
      const found = await eventually(
        () => errors('plain'),
        (list) => list.some((error) => error.source === 'proxy:http'),
        'the 500 in get-errors',
      );
      const failed = found.find((error) => error.source === 'proxy:http')!;
      expect(failed).toMatchObject({severity: 'error', category: expect.stringMatching(/^500/)});
      expect(failed.message).toMatch(/^GET \/api\/boom/);
      expect(failed.message).toContain('database connection refused by the test');
      expect(found.some((error) => error.message.includes('favicon'))).toBe(false);

      // A baseline without --url takes the page open through the proxy.
      const baseline = await cli(['snapshot', 'baseline', 'current', '--json']);
      expect(baseline.code, baseline.stderr).toBe(0);
      expect(JSON.parse(baseline.stdout)).toMatchObject({snapshot: {name: 'current', url: `${proxy.url}/`, title: 'Target app'}});
    });
  });

  describe('a Vite dev server', () => {
    let app: string;
    let vite: {close(): Promise<void>; resolvedUrls: {local: string[]} | null} | undefined;
    let page: Page;

    beforeAll(async () => {
      app = mkdtempSync(join(tmpdir(), 'wb-vite-app-'));
      cpSync(FIXTURE, app, {recursive: true});
      const {createServer} = await import('vite');
      const server = await createServer({
        root: app,
        configFile: join(app, 'vite.config.mjs'),
        cacheDir: join(app, '.vite-cache'),
        server: {host: '127.0.0.1', port: 0},
      });
      await server.listen();
      vite = server;
    }, 120_000);
    afterAll(async () => {
      await page?.close();
      await vite?.close();
      rmSync(app, {recursive: true, force: true});
    });

    it('serves the app, brings an edited module over HMR through the proxied WebSocket, and puts a thrown error in the inbox at its source-mapped line', async () => {
      const target = vite!.resolvedUrls!.local[0]!.replace(/\/$/, '');
      const proxy = await startProxy('vite', target);
      page = await browser.newPage();
      // Vite's client says so once its HMR socket (through the proxy) is open: an edit before that is not sent to it.
      let hmrConnected = false;
      page.on('console', (message) => {
        if (message.text().includes('[vite] connected')) hmrConnected = true;
      });
      await page.goto(`${proxy.url}/`);
      await page.locator('#message', {hasText: 'first version'}).waitFor({timeout: 60_000});
      await eventually(
        async () => hmrConnected,
        (connected) => connected,
        "Vite's HMR client connected",
      );

      // HMR, not a reload: a value set on the page survives the update.
      await page.evaluate(() => ((window as unknown as {__kept: number}).__kept = 42));
      const module = join(app, 'src/message.ts');
      const edited = readFileSync(module, 'utf8').replace('first version', 'second version');
      // Vite's watcher may still be taking in the folder on a loaded machine and miss one change:
      // the edit is written again (a new comment each time) until the page shows it.
      for (let attempt = 0; ; attempt++) {
        writeFileSync(module, `${edited}\n// edit ${attempt}\n`);
        try {
          await page.locator('#message', {hasText: 'second version'}).waitFor({timeout: 5_000});
          break;
        } catch (error) {
          if (attempt >= 11) throw error;
        }
      }
      expect(await page.evaluate(() => (window as unknown as {__kept?: number}).__kept)).toBe(42);

      await page.click('#boom');
      const found = await eventually(
        () => errors('vite'),
        (list) => list.some((error) => error.source === 'browser:js'),
        'the thrown error in get-errors',
      );
      const thrown = found.find((error) => error.source === 'browser:js')!;
      expect(thrown).toMatchObject({severity: 'error', category: 'TypeError', message: 'boom from src: clicked', page: `${proxy.url}/`});
      // Line 11 of src/boom.ts; the module Vite serves has it on line 2.
      expect(thrown.location).toMatch(/^src\/boom\.ts:11:\d+$/);
    });
  });
});
