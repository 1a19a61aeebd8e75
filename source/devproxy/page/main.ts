/**
 * The script the dev proxy injects into every HTML page (bundled into one IIFE by
 * scripts/page-script.mjs). It defines window.__devtool and connects the page to the proxy's
 * channel. Included twice (a page that inlines it, a proxy chain), it runs once.
 */
import type {PageMessage, ProxyMessage} from '../channel/protocol.js';
import {CHANNEL_PATH} from '../types.js';
import {ChannelClient} from './channel-client.js';
import {buildDevtool} from './devtool.js';
import {execute} from './exec.js';
import {FloodGuard} from './flood-guard.js';
import {toJsonSafe} from './json-safe.js';
import {sendLogsTo} from './page-log.js';
import {pageTitle, pageUrl, watchErrors, watchInteractions, watchNavigation} from './page-events.js';
import {sessionId} from './session.js';

/** Errors and logs together, per second, before the page is considered runaway. */
const MESSAGES_PER_SECOND = 50;

function install(): void {
  const holder = window as unknown as {__devtool?: unknown};
  if (holder.__devtool) return;
  const devtool = buildDevtool();
  Object.defineProperty(window, '__devtool', {value: Object.freeze(devtool), configurable: true, enumerable: true, writable: false});

  const session = sessionId();
  const loadedAt = Math.round(performance.timeOrigin || Date.now());
  const client = new ChannelClient({
    url: `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${CHANNEL_PATH}`,
    hello: () => ({t: 'hello', session, url: pageUrl(), title: pageTitle(), loadedAt, userAgent: navigator.userAgent.slice(0, 512)}),
    onMessage: (message: ProxyMessage) => {
      if (message.t !== 'exec' || typeof message.id !== 'string') return;
      void execute(message.code, message.timeoutMs).then((outcome) => {
        const answer: PageMessage = outcome.ok
          ? {t: 'result', id: message.id.slice(0, 64), ok: true, value: outcome.value}
          : {t: 'result', id: message.id.slice(0, 64), ok: false, error: outcome.error};
        client.send(answer);
      });
    },
    onDropped: (count) => guard.countDropped(count),
  });
  const guard = new FloodGuard(MESSAGES_PER_SECOND, (count) =>
    client.send({
      t: 'log',
      level: 'warn',
      message: `workbench: dropped ${count} error/log message(s) from this page (over ${MESSAGES_PER_SECOND}/s or the channel was down too long)`,
      url: pageUrl(),
      timestamp: Date.now(),
    }),
  );
  const send = (message: PageMessage) => client.send(message);
  sendLogsTo((level, message, data) => {
    if (!guard.admit()) return;
    send({t: 'log', level, message: message.slice(0, 4096), data: data === undefined ? undefined : toJsonSafe(data, {maxChars: 50_000}), url: pageUrl(), timestamp: Date.now()});
  });
  watchErrors(send, () => guard.admit());
  watchNavigation(send);
  watchInteractions(send);
  client.start();
}

install();
