import {WorkbenchError} from '../core/errors.js';
import {playwrightReason, withChromium} from '../browser/chromium.js';
import {guardRequests} from './request-guard.js';

export interface Viewport {
  width: number;
  height: number;
}

export interface CaptureOptions {
  url: URL;
  viewport: Viewport;
  /** The whole scrollable page rather than the viewport. */
  fullPage: boolean;
  /** The most the capture may take, browser start included. */
  timeoutMs: number;
}

export interface Capture {
  png: Buffer;
  /** HTTP status of the page itself (null when the browser had no response, e.g. a data: redirect). */
  status: number | null;
  /** Where the page ended up after redirects. */
  finalUrl: string;
  title: string;
  /** Requests the address policy refused (link-local, or private from a public page). */
  refused: string[];
}

// After `load`, the page gets this long at most to go quiet on the network: a dev server's HMR
// socket or a polling script would otherwise keep a capture waiting for its whole timeout.
const NETWORK_IDLE_MS = 5_000;

/**
 * Loads a page in a fresh headless Chromium and photographs it, made as repeatable as a page
 * allows: fixed viewport at scale 1, reduced motion, animations finished and the caret hidden,
 * fonts loaded, service workers off, and UTC, en-US and a light scheme whatever the machine's settings.
 */
export async function capturePage(options: CaptureOptions): Promise<Capture> {
  const deadline = Date.now() + options.timeoutMs;
  const left = () => Math.max(1, deadline - Date.now());
  return withChromium(
    async (browser) => {
      const context = await browser.newContext({
        viewport: options.viewport,
        deviceScaleFactor: 1,
        reducedMotion: 'reduce',
        colorScheme: 'light',
        locale: 'en-US',
        timezoneId: 'UTC',
        serviceWorkers: 'block',
      });
      const page = await context.newPage();
      const refused = await guardRequests(page, options.url);
      const response = await page.goto(options.url.href, {waitUntil: 'load', timeout: left()}).catch((error: unknown) => {
        throw unreachable(options.url, error, options.timeoutMs);
      });
      const status = response?.status() ?? null;
      await page.waitForLoadState('networkidle', {timeout: Math.min(NETWORK_IDLE_MS, left())}).catch(() => undefined);
      await page.evaluate(() => document.fonts.ready.then(() => undefined)).catch(() => undefined);
      try {
        const png = await page.screenshot({type: 'png', fullPage: options.fullPage, animations: 'disabled', caret: 'hide', timeout: left()});
        return {png, status, finalUrl: page.url(), title: await page.title(), refused};
      } catch (error) {
        throw new WorkbenchError('page_unreachable', `could not photograph ${options.url.href}: ${playwrightReason(error)}`);
      }
    },
    {timeoutMs: options.timeoutMs},
  );
}

function unreachable(url: URL, error: unknown, timeoutMs: number): WorkbenchError {
  const reason = playwrightReason(error);
  if (/Timeout \d+ms exceeded/.test(reason)) {
    return new WorkbenchError('page_unreachable', `${url.href} did not finish loading within ${Math.round(timeoutMs / 1000)} s (raise timeout if the page is slow)`);
  }
  // Chromium's net error names the cause: net::ERR_CONNECTION_REFUSED, net::ERR_NAME_NOT_RESOLVED…
  const net = /net::ERR_[A-Z_]+/.exec(reason)?.[0];
  const blocked = net === 'net::ERR_BLOCKED_BY_CLIENT' ? ' (refused by the address policy: a link-local or metadata address, or a private one reached from a public page)' : '';
  return new WorkbenchError('page_unreachable', `could not load ${url.href}: ${net ? `${net}${blocked}` : reason}`);
}
