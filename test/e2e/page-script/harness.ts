/**
 * Plays the proxy's side for the page script: a node:http server on 127.0.0.1 that serves fixture
 * pages with the script inlined, and a `ws` server on CHANNEL_PATH that reads the page channel
 * (every frame checked against channel/protocol.ts) and sends exec. Chromium is the real one.
 */
import {createServer, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import {chromium, type Browser} from 'playwright-core';
import {WebSocketServer, type WebSocket} from 'ws';
import {pageMessage, type PageMessage} from '../../../source/devproxy/channel/protocol.js';
import {pageScript} from '../../../source/devproxy/page-script.js';
import {CHANNEL_PATH} from '../../../source/devproxy/types.js';
import {CHROMIUM_ARGS, chromiumPath} from '../../../source/browser/chromium.js';
import {requirePackage} from '../../helpers/system-package.js';

export const hasChromium = !requirePackage('chromium', {for: 'the page script tests'});

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [...CHROMIUM_ARGS],
  });
}

export interface Received {
  connection: number;
  message: PageMessage;
}

/** A page: its HTML (the script goes right after <head>), or `inject: false` for the page as the app sent it. */
export interface FixturePage {
  html: string;
  inject?: boolean | 'twice';
  /** A Content-Security-Policy header; the script tag then carries nonce="n0nce", as the proxy's would. */
  csp?: string;
}

export class FixtureServer {
  readonly received: Received[] = [];
  /** Frames that failed the protocol's schema (must stay empty). */
  readonly invalid: string[] = [];
  private server: Server | undefined;
  private readonly wss = new WebSocketServer({noServer: true});
  private readonly sockets = new Set<WebSocket>();
  private connections = 0;
  private nextExec = 0;
  private readonly pending = new Map<string, (message: Extract<PageMessage, {t: 'result'}>) => void>();
  port = 0;

  constructor(private readonly pages: Record<string, FixturePage>) {}

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  messages<T extends PageMessage['t']>(type: T): Array<Extract<PageMessage, {t: T}>> {
    return this.received.filter((entry) => entry.message.t === type).map((entry) => entry.message as Extract<PageMessage, {t: T}>);
  }

  get openSockets(): number {
    return this.sockets.size;
  }

  async start(port = 0): Promise<void> {
    const server = createServer((request, response) => {
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      const page = this.pages[path];
      if (!page) {
        response.writeHead(404).end('not found');
        return;
      }
      const tag = `<script${page.csp ? ' nonce="n0nce"' : ''}>${pageScript()}</script>`;
      const script = page.inject === false ? '' : page.inject === 'twice' ? tag + tag : tag;
      const headers: Record<string, string> = {'content-type': 'text/html; charset=utf-8'};
      if (page.csp) headers['content-security-policy'] = page.csp;
      response.writeHead(200, headers).end(page.html.replace('<head>', `<head>${script}`));
    });
    server.on('upgrade', (request, socket, head) => {
      if (new URL(request.url ?? '/', 'http://x').pathname !== CHANNEL_PATH) {
        socket.destroy();
        return;
      }
      this.wss.handleUpgrade(request, socket, head, (ws) => this.accept(ws));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
  }

  /** Like a proxy going away: every page socket dropped and the port closed. */
  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.terminate();
    this.sockets.clear();
    const server = this.server;
    this.server = undefined;
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }

  async close(): Promise<void> {
    await this.stop();
    this.wss.close();
  }

  /** Runs code in the most recently connected page, as the proxy's exec does. */
  exec(code: string, timeoutMs = 10_000): Promise<Extract<PageMessage, {t: 'result'}>> {
    const socket = [...this.sockets].at(-1);
    if (!socket) return Promise.reject(new Error('no page connected'));
    const id = `exec-${++this.nextExec}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`exec ${id} got no answer`)), timeoutMs + 5000);
      this.pending.set(id, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
      socket.send(JSON.stringify({t: 'exec', id, code, timeoutMs}));
    });
  }

  private accept(socket: WebSocket): void {
    const connection = ++this.connections;
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('message', (data) => {
      const text = data.toString();
      let parsed;
      try {
        parsed = pageMessage.safeParse(JSON.parse(text));
      } catch (_notJson) {
        this.invalid.push(text);
        return;
      }
      if (!parsed.success) {
        this.invalid.push(text);
        return;
      }
      this.received.push({connection, message: parsed.data});
      if (parsed.data.t === 'result') this.pending.get(parsed.data.id)?.(parsed.data);
    });
  }
}
