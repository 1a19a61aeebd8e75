import type {Browser} from 'playwright-core';
import {WorkbenchError} from '../core/errors.js';
import {playwrightReason, withChromium} from '../browser/chromium.js';
import {REFUSED_HEADER, startGuardProxy, UNREACHABLE_HEADER, type GuardProxy} from '../browser/guard-proxy.js';
import {targetRefusal} from '../net/index.js';

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
  /** Tells which step starts: 0 browser start, 1 page load, 2 capture. */
  onStep?: (step: number, message: string) => void;
  /** Aborted (a cancelled tool call): the browser is closed and the capture fails. */
  signal?: AbortSignal;
}

export interface Capture {
  png: Buffer;
  /** HTTP status of the page itself (null when the browser had no response, e.g. a data: redirect). */
  status: number | null;
  /** Where the page ended up after redirects. */
  finalUrl: string;
  title: string;
  /** Why requests of the page were refused by the address policy (link-local, or private from a public page). */
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
  options.onStep?.(0, 'starting the browser');
  // A page the user named on a private address (their dev server) may load from private addresses,
  // as a browser would; a public page may not reach into the developer's own network.
  const guard = await startGuardProxy({allowPrivate: (await targetRefusal(options.url, {allowPrivate: false})) !== null});
  try {
    return await withChromium(
      async (browser) => {
        // A cancel closes the browser: whatever it was doing fails, and the capture ends with it.
        const close = () => void browser.close().catch(() => undefined);
        options.signal?.addEventListener('abort', close, {once: true});
        try {
          if (options.signal?.aborted) throw new WorkbenchError('request_timeout', 'the capture was cancelled');
          return await photograph(browser, options, guard, left);
        } finally {
          options.signal?.removeEventListener('abort', close);
        }
      },
      {timeoutMs: options.timeoutMs},
    );
  } finally {
    await guard.close();
  }
}

async function photograph(browser: Browser, options: CaptureOptions, guard: GuardProxy, left: () => number): Promise<Capture> {
  const context = await browser.newContext({
    viewport: options.viewport,
    deviceScaleFactor: 1,
    reducedMotion: 'reduce',
    colorScheme: 'light',
    locale: 'en-US',
    timezoneId: 'UTC',
    serviceWorkers: 'block',
    // `<-loopback>` takes away Chromium's own exemption of localhost: every request goes through the guard.
    proxy: {server: guard.url, bypass: '<-loopback>'},
  });
  const page = await context.newPage();
  options.onStep?.(1, `loading ${options.url.href}`);
  const response = await page.goto(options.url.href, {waitUntil: 'load', timeout: left()}).catch((error: unknown) => {
    throw unreachable(options.url, error, options.timeoutMs, guard);
  });
  const headers = response?.headers() ?? {};
  if (headers[REFUSED_HEADER]) throw new WorkbenchError('page_unreachable', `could not load ${options.url.href}: ${guard.refused.join('; ')}`);
  if (headers[UNREACHABLE_HEADER]) throw new WorkbenchError('page_unreachable', `could not load ${options.url.href}: ${describeCode(headers[UNREACHABLE_HEADER])}`);
  const status = response?.status() ?? null;
  await page.waitForLoadState('networkidle', {timeout: Math.min(NETWORK_IDLE_MS, left())}).catch(() => undefined);
  await page.evaluate(() => document.fonts.ready.then(() => undefined)).catch(() => undefined);
  options.onStep?.(2, 'photographing the page');
  try {
    const png = await page.screenshot({type: 'png', fullPage: options.fullPage, animations: 'disabled', caret: 'hide', timeout: left()});
    return {png, status, finalUrl: page.url(), title: await page.title(), refused: [...guard.refused]};
  } catch (error) {
    throw new WorkbenchError('page_unreachable', `could not photograph ${options.url.href}: ${playwrightReason(error)}`);
  }
}

function unreachable(url: URL, error: unknown, timeoutMs: number, guard: GuardProxy): WorkbenchError {
  const reason = playwrightReason(error);
  if (/Timeout \d+ms exceeded/.test(reason)) {
    return new WorkbenchError('page_unreachable', `${url.href} did not finish loading within ${Math.round(timeoutMs / 1000)} s (raise timeout if the page is slow)`);
  }
  // Chromium's net error names the cause: net::ERR_CONNECTION_REFUSED, net::ERR_NAME_NOT_RESOLVED…
  const net = /net::ERR_[A-Z_]+/.exec(reason)?.[0];
  // An https page (or a redirect to one) the guard proxy could not or would not open ends in a failed tunnel; the proxy knows why.
  if (net === 'net::ERR_TUNNEL_CONNECTION_FAILED') {
    if (guard.refused.length) return new WorkbenchError('page_unreachable', `could not load ${url.href}: ${guard.refused.join('; ')}`);
    const [host, code] = guard.unreachable[0]?.split(': ') ?? [];
    if (code) return new WorkbenchError('page_unreachable', `could not load ${url.href}: ${host} ${describeCode(code)}`);
  }
  return new WorkbenchError('page_unreachable', `could not load ${url.href}: ${net ?? reason}`);
}

const CONNECT_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed for now',
  ETIMEDOUT: 'connection timed out',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

/** `connection refused (ECONNREFUSED)`: what a system error code means, and the code. */
function describeCode(code: string): string {
  return CONNECT_ERRORS[code] ? `${CONNECT_ERRORS[code]} (${code})` : code;
}
