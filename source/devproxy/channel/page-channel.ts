import type {IncomingMessage} from 'node:http';
import type {Duplex} from 'node:stream';
import {WebSocketServer, type RawData, type WebSocket} from 'ws';
import {WorkbenchError} from '../../core/errors.js';
import type {NewTrafficEntry} from '../log/traffic-ring.js';
import type {ExecResult, PageSession} from '../types.js';
import {ExecRequests, type ExecTarget} from './exec.js';
import {MAX_PAGE_FRAME, pageMessage, type PageMessage, type ProxyMessage} from './protocol.js';
import {TokenBucket} from './rate-limit.js';
import {PageSessions} from './sessions.js';

// Per session: a burst of 200 messages, then 100 a second. A page in an error loop gets counted, not logged.
const RATE_PER_SECOND = 100;
const RATE_BURST = 200;
// Dropped and invalid messages are reported once per window, as one diagnostic each.
const REPORT_WINDOW_MS = 1000;
const MAP_STACK_TIMEOUT_MS = 3000;
// A log entry's data is kept as JSON up to this length.
const MAX_DATA_JSON = 2048;

export interface PageChannelOptions {
  record: (entry: NewTrafficEntry) => void;
  mapStack?: (stack: string, pageUrl: string) => Promise<string>;
  /** For messages: the proxy's id and address. */
  describe: () => {id: string; url: string};
}

/** One WebSocket from a page. */
class PageConnection implements ExecTarget {
  session = '';
  url = '';
  bucket?: TokenBucket;
  dropped = 0;
  invalid = 0;
  reportTimer?: NodeJS.Timeout;

  constructor(readonly socket: WebSocket) {}

  send(message: ProxyMessage): void {
    this.socket.send(JSON.stringify(message));
  }
}

/**
 * The proxy's end of the page channel: every page script connects here, says hello, and reports
 * navigations, errors, logs and interactions; execs go the other way. Every frame is untrusted:
 * capped in size (ws's maxPayload), parsed, rate-limited per session and validated before use.
 */
export class PageChannel {
  private readonly server = new WebSocketServer({noServer: true, maxPayload: MAX_PAGE_FRAME, perMessageDeflate: false});
  private readonly connections = new Set<PageConnection>();
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly sessions = new PageSessions();
  private readonly execs = new ExecRequests();

  constructor(private readonly options: PageChannelOptions) {}

  /** Takes over an upgrade request for the channel path. */
  accept(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.server.handleUpgrade(request, socket, head, (ws) => this.connected(ws));
  }

  pages(): PageSession[] {
    return this.sessions.list();
  }

  connectedPages(): number {
    return this.sessions.connected();
  }

  /** A request that failed: it counts against the page that issued it. */
  failedRequest(pageUrl: string): void {
    this.sessions.failedRequest(pageUrl);
  }

  exec(code: string, options: {session?: string; timeoutMs?: number} = {}): Promise<ExecResult[]> {
    // The newest connection of each session: a reloading tab may still have its old one open.
    const latest = new Map<string, PageConnection>();
    for (const connection of this.connections) {
      if (connection.session && connection.socket.readyState === connection.socket.OPEN) latest.set(connection.session, connection);
    }
    const targets = [...latest.values()].filter((connection) => options.session === undefined || connection.session === options.session);
    if (targets.length === 0) {
      const {id, url} = this.options.describe();
      throw new WorkbenchError(
        'no_page',
        options.session === undefined
          ? `no page is connected to proxy ${id}; open ${url} in a browser, then run the code again`
          : `page session ${JSON.stringify(options.session.slice(0, 80))} is not connected to proxy ${id}; \`workbench currentpage ${id}\` lists the connected ones`,
      );
    }
    return this.execs.run(code, targets, options.timeoutMs);
  }

  close(): void {
    this.execs.cancelAll();
    for (const connection of this.connections) {
      clearTimeout(connection.reportTimer);
      connection.socket.terminate();
    }
    this.server.close();
  }

  private connected(socket: WebSocket): void {
    const connection = new PageConnection(socket);
    this.connections.add(connection);
    socket.on('message', (data, isBinary) => this.received(connection, data, isBinary));
    // Too large a frame (1009) or a protocol error: ws closes the socket; the page script reconnects.
    socket.on('error', () => {
      connection.invalid++;
      this.scheduleReport(connection);
    });
    socket.on('close', () => this.disconnected(connection));
  }

  private disconnected(connection: PageConnection): void {
    this.connections.delete(connection);
    this.execs.abandon(connection);
    this.report(connection);
    if (!connection.session) return;
    const now = Date.now();
    if (this.sessions.disconnect(connection.session, now)) {
      this.buckets.delete(connection.session);
      const session = this.sessions.get(connection.session);
      this.options.record({type: 'page', session: connection.session, url: session?.url ?? connection.url, title: session?.title ?? '', event: 'close', timestamp: now});
    }
  }

  private received(connection: PageConnection, data: RawData, isBinary: boolean): void {
    const message = isBinary ? undefined : parse(data);
    if (!message) {
      connection.invalid++;
      this.scheduleReport(connection);
      return;
    }
    // Answers to execs are not rate-limited: they are only ever as many as we asked for.
    if (message.t !== 'result' && !(connection.bucket ?? this.bucketFor(connection)).take()) {
      connection.dropped++;
      this.scheduleReport(connection);
      return;
    }
    const valid = pageMessage.safeParse(message);
    if (!valid.success || (valid.data.t !== 'hello' && !connection.session)) {
      connection.invalid++;
      this.scheduleReport(connection);
      return;
    }
    this.handle(connection, valid.data);
  }

  private handle(connection: PageConnection, message: PageMessage): void {
    const now = Date.now();
    const {record} = this.options;
    switch (message.t) {
      case 'hello': {
        if (connection.session && connection.session !== message.session) this.sessions.disconnect(connection.session, now);
        const {loaded} = this.sessions.hello(message, now);
        if (connection.session !== message.session) connection.bucket = undefined;
        connection.session = message.session;
        connection.url = message.url;
        if (loaded) record({type: 'page', session: message.session, url: message.url, title: message.title, event: 'load', timestamp: now});
        return;
      }
      case 'navigate': {
        const session = this.sessions.touch(connection.session, now);
        if (session) {
          session.url = message.url;
          session.title = message.title;
        }
        connection.url = message.url;
        record({type: 'page', session: connection.session, url: message.url, title: message.title, event: 'navigate', timestamp: now});
        return;
      }
      case 'interaction': {
        const session = this.sessions.touch(connection.session, now);
        if (session) session.lastInteraction = now;
        return;
      }
      case 'error': {
        const session = this.sessions.touch(connection.session, now);
        if (session) session.errors++;
        void this.recordError(connection.session, message, now);
        return;
      }
      case 'log': {
        this.sessions.touch(connection.session, now);
        const entry: NewTrafficEntry = {type: 'custom', level: message.level, message: message.message, page: message.url, timestamp: now, session: connection.session};
        if (message.data !== undefined) entry.data = boundedData(message.data);
        record(entry);
        return;
      }
      case 'result':
        this.execs.answer(connection, message);
        return;
    }
  }

  private async recordError(session: string, message: Extract<PageMessage, {t: 'error'}>, now: number): Promise<void> {
    const entry: NewTrafficEntry = {type: 'error', message: message.message, page: message.url, timestamp: now, session};
    if (message.category) entry.category = message.category;
    if (message.stack) {
      entry.stack = message.stack;
      const mapped = this.options.mapStack ? await mapWithin(this.options.mapStack, message.stack, message.url) : undefined;
      if (mapped !== undefined && mapped !== message.stack) {
        entry.rawStack = message.stack;
        entry.stack = mapped;
      }
    }
    this.options.record(entry);
  }

  private bucketFor(connection: PageConnection): TokenBucket {
    // Before hello a connection has its own bucket; after it, the session's (all of a tab's connections share it).
    const key = connection.session;
    let bucket = key ? this.buckets.get(key) : undefined;
    if (!bucket) {
      bucket = new TokenBucket(RATE_PER_SECOND, RATE_BURST);
      if (key) this.buckets.set(key, bucket);
    }
    connection.bucket = bucket;
    return bucket;
  }

  private scheduleReport(connection: PageConnection): void {
    if (connection.reportTimer) return;
    connection.reportTimer = setTimeout(() => this.report(connection), REPORT_WINDOW_MS);
    connection.reportTimer.unref();
  }

  /** One diagnostic for what a page sent too fast and one for what it sent malformed, since the last report. */
  private report(connection: PageConnection): void {
    clearTimeout(connection.reportTimer);
    connection.reportTimer = undefined;
    const page = connection.url || 'a page that has not said hello';
    const timestamp = Date.now();
    if (connection.dropped > 0) {
      this.options.record({
        type: 'diagnostic',
        level: 'warning',
        category: 'page_rate_limited',
        message: `dropped ${connection.dropped} messages from ${page}: over ${RATE_PER_SECOND} a second (a page in an error loop?)`,
        timestamp,
        url: connection.url || undefined,
      });
      connection.dropped = 0;
    }
    if (connection.invalid > 0) {
      this.options.record({
        type: 'diagnostic',
        level: 'warning',
        category: 'page_message_invalid',
        message: `ignored ${connection.invalid} malformed or oversized messages from ${page} on the page channel`,
        timestamp,
        url: connection.url || undefined,
      });
      connection.invalid = 0;
    }
  }
}

function parse(data: RawData): {t?: unknown} | undefined {
  try {
    const value: unknown = JSON.parse(Array.isArray(data) ? Buffer.concat(data).toString('utf8') : data.toString());
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as {t?: unknown}) : undefined;
  } catch {
    return undefined;
  }
}

function boundedData(data: unknown): unknown {
  const json = JSON.stringify(data);
  if (json === undefined || json.length <= MAX_DATA_JSON) return data;
  return {truncated: json.slice(0, MAX_DATA_JSON)};
}

async function mapWithin(mapStack: (stack: string, pageUrl: string) => Promise<string>, stack: string, pageUrl: string): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      mapStack(stack, pageUrl),
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), MAP_STACK_TIMEOUT_MS);
      }),
    ]);
  } catch {
    // A stack that cannot be mapped is kept as the browser gave it.
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}
