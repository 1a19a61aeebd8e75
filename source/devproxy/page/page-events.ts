/**
 * What the page tells the proxy on its own: uncaught errors and unhandled rejections, SPA navigations,
 * and (throttled) that a person is interacting. Listeners, never handler properties: a page that sets
 * window.onerror (or clears it) does not turn reporting off.
 */
import type {PageMessage} from '../channel/protocol.js';
import {errorText} from './exec.js';

type Send = (message: PageMessage) => void;

const cut = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

export function pageUrl(): string {
  return cut(location.href, 4096);
}

export function pageTitle(): string {
  return cut(document.title, 1024);
}

export function watchErrors(send: Send, admit: () => boolean): void {
  window.addEventListener('error', (event) => {
    // Failed resource loads reach window only in the capture phase; this listener sees script errors.
    if (!(event instanceof ErrorEvent) || !admit()) return;
    const error = event.error as unknown;
    const where = event.filename ? `\n    at ${event.filename}:${event.lineno}:${event.colno}` : '';
    const stack = error instanceof Error && typeof error.stack === 'string' && error.stack.includes('\n') ? error.stack : `${event.message}${where}`;
    send({
      t: 'error',
      message: cut(event.message || (error instanceof Error ? `${error.name}: ${error.message}` : 'Script error.'), 4096),
      category: cut(error instanceof Error ? error.name : typeof error === 'object' && error !== null ? 'Error' : 'Thrown', 256),
      stack: cut(stack, 16384),
      url: pageUrl(),
      timestamp: Date.now(),
    });
  });
  window.addEventListener('unhandledrejection', (event) => {
    if (!admit()) return;
    const reason = event.reason as unknown;
    const isError = reason instanceof Error;
    send({
      t: 'error',
      message: cut(isError ? `Uncaught (in promise) ${reason.name}: ${reason.message}` : `Uncaught (in promise) ${errorText(reason).replace(/^thrown: /, '')}`, 4096),
      category: cut(isError ? reason.name : 'UnhandledRejection', 256),
      stack: isError && typeof reason.stack === 'string' ? cut(reason.stack, 16384) : undefined,
      url: pageUrl(),
      timestamp: Date.now(),
    });
  });
}

/** Reports SPA navigations: history.pushState/replaceState (wrapped, the only patching we do), popstate and hashchange. */
export function watchNavigation(send: Send): void {
  let lastUrl = location.href;
  let timer = 0;
  const changed = () => {
    // Apps set document.title after routing; wait a moment so the title matches the URL.
    window.clearTimeout(timer);
    timer = window.setTimeout(() => {
      if (location.href === lastUrl) return;
      lastUrl = location.href;
      send({t: 'navigate', url: pageUrl(), title: pageTitle()});
    }, 50);
  };
  for (const name of ['pushState', 'replaceState'] as const) {
    const original = history[name];
    history[name] = function (this: History, ...args: Parameters<History['pushState']>) {
      const result = original.apply(this, args);
      changed();
      return result;
    };
  }
  window.addEventListener('popstate', changed);
  window.addEventListener('hashchange', changed);
}

const INTERACTIONS: Record<string, 'click' | 'key' | 'scroll' | 'input'> = {click: 'click', keydown: 'key', scroll: 'scroll', input: 'input'};

/** At most one interaction a second reaches the proxy: enough for "last interaction", never a stream. */
export function watchInteractions(send: Send): void {
  let last = 0;
  let pending: 'click' | 'key' | 'scroll' | 'input' | undefined;
  let timer = 0;
  const flush = () => {
    timer = 0;
    if (!pending) return;
    last = Date.now();
    send({t: 'interaction', kind: pending, timestamp: last});
    pending = undefined;
  };
  for (const [type, kind] of Object.entries(INTERACTIONS)) {
    window.addEventListener(
      type,
      () => {
        pending = kind;
        if (timer) return;
        const wait = Math.max(0, last + 1000 - Date.now());
        if (wait === 0) flush();
        else timer = window.setTimeout(flush, wait);
      },
      {capture: true, passive: true},
    );
  }
}
