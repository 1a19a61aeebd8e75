import {runInNewContext} from 'node:vm';
import WebSocket from 'ws';
import type {PageMessage, ProxyMessage} from '../../source/devproxy/channel/protocol.js';
import {CHANNEL_PATH} from '../../source/devproxy/types.js';

/**
 * A browser tab as the proxy's page channel sees it, for tests that need a connected page before
 * the Chromium e2e: a `ws` client on the proxy's reserved path that says hello, reports what a
 * test tells it to, and answers `exec` by running the code in a small sandbox that has a
 * `document` with a title (what a page would answer to `document.title`).
 */
export interface FakePage {
  session: string;
  send(message: PageMessage): void;
  /** Stops answering exec, as a page stuck in a loop would. */
  freeze(): void;
  close(): Promise<void>;
}

export async function connectPage(proxyUrl: string, options: {session?: string; url?: string; title?: string} = {}): Promise<FakePage> {
  const session = options.session ?? `tab-${Math.random().toString(36).slice(2, 10)}`;
  const url = options.url ?? `${proxyUrl}/`;
  const title = options.title ?? 'Fake page';
  const socket = new WebSocket(proxyUrl.replace(/^http/, 'ws') + CHANNEL_PATH, {origin: proxyUrl});
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let frozen = false;
  const send = (message: PageMessage) => socket.send(JSON.stringify(message));
  socket.on('message', (data) => {
    let message: ProxyMessage;
    try {
      message = JSON.parse(String(data));
    } catch {
      return;
    }
    if (message.t !== 'exec' || frozen) return;
    try {
      const value: unknown = runInNewContext(message.code, {document: {title}, location: {href: url}}, {timeout: message.timeoutMs});
      send({t: 'result', id: message.id, ok: true, value});
    } catch (error) {
      send({t: 'result', id: message.id, ok: false, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error)});
    }
  });
  send({t: 'hello', session, url, title, loadedAt: Date.now(), userAgent: 'workbench-test-page'});
  return {
    session,
    send,
    freeze: () => (frozen = true),
    close: () =>
      new Promise<void>((resolve) => {
        if (socket.readyState === WebSocket.CLOSED) return resolve();
        socket.once('close', () => resolve());
        socket.close();
      }),
  };
}
