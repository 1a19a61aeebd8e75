/** Waiting for the page: promises the exec channel awaits, each bounded by its own timeout and answering data, never rejecting. */
import {describe, find, findAll} from './element.js';
import {failure, primitive} from './primitive.js';

const MAX_WAIT_MS = 60_000;

function timeoutOf(value: unknown, fallback = 5000): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.min(value, MAX_WAIT_MS) : fallback;
}

/** Resolves when `check` answers something, re-checking on every DOM change, or with undefined at the timeout. */
function until<T>(check: () => T | undefined, timeoutMs: number): Promise<T | undefined> {
  const first = check();
  if (first !== undefined) return Promise.resolve(first);
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      const result = check();
      if (result !== undefined) finish(result);
    });
    const timer = window.setTimeout(() => finish(undefined), timeoutMs);
    function finish(result: T | undefined) {
      observer.disconnect();
      window.clearTimeout(timer);
      resolve(result);
    }
    observer.observe(document, {childList: true, subtree: true, attributes: true, characterData: true});
  });
}

export const wait = {
  waitForElement: primitive(
    'selector, timeoutMs? (default 5000)',
    'Resolves with the element once one matches (re-checked on each DOM change), or a timeout error',
    async (selector: unknown, timeoutMs?: unknown) => {
      const checked = findAll(selector);
      if (!Array.isArray(checked)) return checked;
      const started = performance.now();
      const element = await until(() => {
        const found = find(selector);
        return found instanceof Element ? found : undefined;
      }, timeoutOf(timeoutMs));
      return element
        ? {found: true, waitedMs: Math.round(performance.now() - started), element: describe(element)}
        : failure(`no element matched ${JSON.stringify(selector)} within ${timeoutOf(timeoutMs)} ms`);
    },
  ),
  waitForElementGone: primitive(
    'selector, timeoutMs?',
    'Resolves once nothing matches the selector (a spinner gone, a dialog closed), or a timeout error',
    async (selector: unknown, timeoutMs?: unknown) => {
      const checked = findAll(selector);
      if (!Array.isArray(checked)) return checked;
      const started = performance.now();
      const gone = await until(() => ((findAll(selector) as Element[]).length === 0 ? true : undefined), timeoutOf(timeoutMs));
      return gone ? {gone: true, waitedMs: Math.round(performance.now() - started)} : failure(`${JSON.stringify(selector)} still matched after ${timeoutOf(timeoutMs)} ms`);
    },
  ),
  waitForText: primitive('text, timeoutMs?', 'Resolves once the page text contains the given text, or a timeout error', async (text: unknown, timeoutMs?: unknown) => {
    if (typeof text !== 'string' || text === '') return failure('text must be a non-empty string');
    const started = performance.now();
    const seen = await until(() => ((document.body?.textContent ?? '').includes(text) ? true : undefined), timeoutOf(timeoutMs));
    return seen ? {found: true, waitedMs: Math.round(performance.now() - started)} : failure(`text ${JSON.stringify(text)} did not appear within ${timeoutOf(timeoutMs)} ms`);
  }),
  waitForIdle: primitive(
    'quietMs? (default 500), timeoutMs?',
    'Resolves once the DOM has not changed for quietMs (renders settled), or reports it was still busy',
    (quietMs?: unknown, timeoutMs?: unknown) => {
      const quiet = typeof quietMs === 'number' && quietMs > 0 ? Math.min(quietMs, 10_000) : 500;
      const limit = timeoutOf(timeoutMs, 10_000);
      const started = performance.now();
      let mutations = 0;
      return new Promise((resolve) => {
        let quietTimer = 0;
        const observer = new MutationObserver((records) => {
          mutations += records.length;
          window.clearTimeout(quietTimer);
          quietTimer = window.setTimeout(() => finish(true), quiet);
        });
        const limitTimer = window.setTimeout(() => finish(false), limit);
        function finish(idle: boolean) {
          observer.disconnect();
          window.clearTimeout(quietTimer);
          window.clearTimeout(limitTimer);
          resolve({idle, waitedMs: Math.round(performance.now() - started), mutations});
        }
        observer.observe(document, {childList: true, subtree: true, attributes: true, characterData: true});
        quietTimer = window.setTimeout(() => finish(true), quiet);
      });
    },
  ),
};
