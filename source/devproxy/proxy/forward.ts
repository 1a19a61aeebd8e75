import http, {type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse} from 'node:http';
import https from 'node:https';
import {MAX_DECODED_PAGE} from '../inject/content-coding.js';
import {injectHtml} from '../inject/inject-html.js';
import type {PageScript} from '../inject/page-script.js';
import {headerRecord} from '../log/header-record.js';
import type {NewTrafficEntry} from '../log/traffic-ring.js';
import type {HttpTraffic} from '../types.js';
import {BodySample, isTextType} from './body-sample.js';
import {downstreamHeaders} from './downstream-headers.js';
import {describeFailure, failureMessage, failurePage} from './failure.js';
import {requestHead} from './request-head.js';
import {ResponseParser} from './response-parser.js';
import type {Target} from './target.js';
import {traceFor, type TraceContext} from './traceparent.js';
import {UpstreamPool, type ConnectionUser, type UpstreamConnection} from './upstream-pool.js';
import {upstreamHeaders} from './upstream-headers.js';

export interface ForwarderOptions {
  target: Target;
  script: PageScript;
  /** Time to wait for the target's answer, and for each part of a body that is not a stream of events. */
  timeoutMs: number;
  record: (entry: NewTrafficEntry) => void;
}

/** What the log says of a request the browser gave up on (nginx's "client closed req/** What the log says of a request the browser gave up on (nginx's "client closed request"). */
export const CLIENT_CLOSED = 499;

/**
 * Forwards browser requests to the target over kept-alive connections of its own (upstream-pool.ts):
 * the request head is written as one string, the answer is framed by response-parser.ts and
 * streamed on. With undici's dispatcher in its place the whole proxy spent about a third more CPU
 * per request (bench/proxy-throughput.mjs: 185 against 140 µs on a loaded 2-core machine). Upgrades (WebSockets) go through node:http (upgrade.ts),
 * where the socket is handed over whole.
 */
export class Forwarder {
  readonly pool: UpstreamPool;
  readonly transport: typeof http | typeof https;

  constructor(readonly options: ForwarderOptions) {
    this.transport = options.target.secure ? https : http;
    this.pool = new UpstreamPool(options.target, options.timeoutMs);
  }

  forward(request: IncomingMessage, response: ServerResponse): void {
    new Exchange(this, request, response).send();
  }

  async close(): Promise<void> {
    this.pool.close();
  }
}

/**
 * One request and its answer, streamed both ways (an event stream flushes as it arrives), recorded
 * once when it ends, however it ends: answered, broken off by the target, or given up by the browser.
 */
class Exchange implements ConnectionUser {
  private readonly timestamp = Date.now();
  private readonly started = performance.now();
  private readonly method: string;
  private readonly url: string;
  private readonly proxyOrigin: string;
  private readonly trace: TraceContext;
  private readonly requestSample?: BodySample;
  private readonly parser: ResponseParser;
  private connection?: UpstreamConnection;
  private retried = false;
  private answered = false;
  private finished = false;
  private clientGone = false;
  // Filled in as the answer streams.
  private status = 0;
  private statusMessage?: string;
  private derived?: DerivedHeaders;
  private sample?: BodySample;
  private bytes = 0;
  private injected = false;
  // The body's last part from the target, not yet written on (onBody).
  private pending?: Buffer;
  // An event stream may be quiet for minutes; its silence is not a timeout.
  private eventStream = false;
  // An HTML answer is gathered here to inject the page script; undefined while streaming.
  private html?: {chunks: Buffer[]; headers: OutgoingHttpHeaders};

  constructor(
    private readonly forwarder: Forwarder,
    private readonly request: IncomingMessage,
    private readonly response: ServerResponse,
  ) {
    this.method = request.method ?? 'GET';
    this.url = request.url ?? '/';
    this.proxyOrigin = `http://${request.headers.host ?? ''}`;
    this.trace = traceFor(request.headers.traceparent);
    const length = request.headers['content-length'];
    if (length !== undefined ? length !== '0' : request.headers['transfer-encoding'] !== undefined) this.requestSample = new BodySample();
    this.parser = new ResponseParser(this, this.method === 'HEAD');
    response.on('close', () => {
      if (response.writableFinished) return;
      this.clientGone = true;
      this.connection?.socket.destroy();
      this.finish('the browser closed the connection');
    });
  }

  send(): void {
    const {target} = this.forwarder.options;
    const chunked = this.requestSample !== undefined && this.request.headers['content-length'] === undefined;
    const head = requestHead(this.method, target.basePath + this.url, upstreamHeaders(this.request, target, this.trace.header), chunked);
    // A request with a body goes on a fresh connection: it cannot be sent again if a kept-alive one turns out closed.
    const connection = (this.connection = this.requestSample || this.retried ? this.forwarder.pool.takeFresh(this) : this.forwarder.pool.take(this));
    connection.socket.write(head, 'latin1');
    if (this.requestSample) this.sendBody(connection, chunked);
  }

  /** The browser's body as it streams (Node has undone its chunked coding; it is redone for the target), its first bytes kept on the way. */
  private sendBody(connection: UpstreamConnection, chunked: boolean): void {
    const {request, requestSample} = this;
    const {socket} = connection;
    request.on('data', (chunk: Buffer) => {
      requestSample!.add(chunk);
      if (socket.destroyed) return;
      if (chunked) socket.write(`${chunk.length.toString(16)}\r\n`);
      const flowing = socket.write(chunk);
      if (chunked) socket.write('\r\n');
      if (!flowing) {
        request.pause();
        socket.once('drain', () => request.resume());
      }
    });
    request.on('end', () => {
      if (chunked && !socket.destroyed) socket.write('0\r\n\r\n');
    });
  }

  onData(chunk: Buffer): void {
    try {
      this.parser.feed(chunk);
    } catch (error) {
      this.connection?.socket.destroy();
      this.fail(error);
    }
    const pending = this.pending;
    if (pending === undefined) return;
    this.pending = undefined;
    if (!this.finished) this.writeOn(pending);
  }

  onClosed(error: Error | undefined): void {
    const reused = this.connection?.reused === true;
    this.connection = undefined;
    if (this.finished || this.clientGone) return;
    // A kept-alive connection the target closed as the request went out: once more on a new one, unless sending twice could do twice.
    if (reused && !this.retried && this.parser.empty && this.requestSample === undefined && this.method !== 'POST' && this.method !== 'PATCH') {
      this.retried = true;
      return this.send();
    }
    if (this.parser.close()) return;
    this.fail(error ?? Object.assign(new Error('the target closed the connection before the answer ended'), {code: 'ECONNRESET'}));
  }

  onTimeout(): void {
    if (this.eventStream) return;
    const {timeoutMs} = this.forwarder.options;
    this.connection?.socket.destroy();
    this.fail(Object.assign(new Error(`no data within ${timeoutMs} ms`), {code: 'ETIMEDOUT'}));
  }

  onHead(status: number, statusMessage: string, received: IncomingHttpHeaders): void {
    this.answered = true;
    this.status = status;
    this.statusMessage = statusMessage;
    const derived = this.derive(received);
    const headers = derived.downstream;
    if (derived.textBody) this.sample = new BodySample(derived.contentEncoding);
    this.eventStream = derived.eventStream;
    const bodyless = this.method === 'HEAD' || status === 204 || status === 304;
    if (!bodyless && status !== 206 && derived.html) {
      this.html = {chunks: [], headers};
      return;
    }
    this.response.writeHead(status, statusMessage, headers);
  }

  /** What the browser gets and what the log keeps of the target's headers, worked out once for answers that share a head. */
  private derive(received: IncomingHttpHeaders): DerivedHeaders {
    const known = derived.get(received);
    if (known !== undefined && known.proxyOrigin === this.proxyOrigin) return (this.derived = known);
    const contentType = received['content-type'];
    const fresh: DerivedHeaders = {
      proxyOrigin: this.proxyOrigin,
      contentType: headerText(contentType),
      contentEncoding: headerText(received['content-encoding']),
      textBody: isTextType(contentType),
      eventStream: contentType?.startsWith('text/event-stream') === true,
      html: contentType?.toLowerCase().includes('text/html') === true,
      downstream: Object.freeze(downstreamHeaders(received, this.forwarder.options.target, this.proxyOrigin)),
      record: Object.freeze(headerRecord(received)),
    };
    derived.set(received, fresh);
    return (this.derived = fresh);
  }

  onBody(chunk: Buffer): void {
    this.bytes += chunk.length;
    this.sample?.add(chunk);
    const html = this.html;
    if (html) {
      html.chunks.push(chunk);
      if (this.bytes <= MAX_DECODED_PAGE) return;
      // Too large to buffer: it streams on as the target sent it.
      this.html = undefined;
      this.response.writeHead(this.status, this.statusMessage, html.headers);
      for (const part of html.chunks) this.response.write(part);
      return;
    }
    // The part is held until more comes or this read of the target's bytes is done: a body that
    // ends in the same read (most answers) goes with the end, one write to the browser instead of two.
    if (this.pending !== undefined) this.writeOn(this.pending);
    this.pending = chunk;
  }

  private writeOn(chunk: Buffer): void {
    if (!this.response.write(chunk)) {
      // The browser reads slower than the target sends: hold the target until it catches up. An
      // exchange that ends meanwhile hands the connection back flowing (release), so the drain
      // only resumes a connection this exchange still holds.
      const connection = this.connection;
      connection?.socket.pause();
      this.response.once('drain', () => {
        if (connection && this.connection === connection) connection.socket.resume();
      });
    }
  }

  onEnd(reusable: boolean): void {
    const connection = this.connection;
    this.connection = undefined;
    // An answer that came before the whole request was sent leaves the connection mid-request.
    connection?.release(reusable && (this.requestSample === undefined || this.request.complete));
    const html = this.html;
    if (html) {
      const raw = html.chunks.length === 1 ? html.chunks[0]! : Buffer.concat(html.chunks);
      const injected = injectHtml(raw, html.headers, this.forwarder.options.script, this.proxyOrigin.replace(/^http:/, 'ws:'));
      this.injected = injected !== undefined;
      const {response} = this;
      response.writeHead(this.status, this.statusMessage, injected?.headers ?? html.headers);
      const parts = injected?.parts ?? [raw];
      response.cork();
      for (const part of parts.slice(0, -1)) response.write(part);
      response.end(parts.at(-1));
      response.uncork();
    } else {
      const pending = this.pending;
      this.pending = undefined;
      this.response.end(pending);
    }
    this.finish();
  }

  private fail(error: unknown): void {
    if (this.finished) return;
    const {target, record} = this.forwarder.options;
    const {request, response, method, url} = this;
    const failure = describeFailure(error);
    const message = failureMessage(target, failure, this.answered);
    // Before any answer the request's entry is a transport error (status 0) carrying this failure; after one, only the diagnostic says it.
    record({
      type: 'diagnostic',
      level: 'error',
      category: failure.code,
      message,
      timestamp: Date.now(),
      method,
      url,
      ...(this.answered || this.clientGone ? {} : {inHttpEntry: true as const}),
    });
    if (!response.headersSent) {
      const retry = method === 'GET' && (request.headers.accept ?? '').includes('text/html');
      const page = failurePage(target, failure, method, url, retry);
      response.writeHead(502, {'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(page), 'cache-control': 'no-store'});
      response.end(method === 'HEAD' ? undefined : page);
    } else {
      // The browser has the status line already: breaking the connection is the only honest signal.
      response.destroy();
    }
    this.finish(`${failure.code}: ${message}`);
  }

  private finish(error?: string): void {
    if (this.finished) return;
    this.finished = true;
    const {request} = this;
    const entry: Omit<HttpTraffic, 'seq'> = {
      type: 'http',
      method: this.method,
      url: this.url,
      status: this.clientGone && !this.answered ? CLIENT_CLOSED : this.status,
      timestamp: this.timestamp,
      traceId: this.trace.traceId,
      durationMs: Math.round((performance.now() - this.started) * 100) / 100,
      requestHeaders: headerRecord(request.headers),
      responseHeaders: this.derived?.record ?? {},
      requestBytes: this.requestSample?.bytes ?? 0,
      responseBytes: this.bytes,
    };
    const contentType = this.derived?.contentType;
    if (contentType) entry.contentType = contentType;
    const body = this.sample?.text();
    if (body !== undefined) entry.body = body;
    if (error !== undefined) entry.error = error;
    if (this.injected) entry.injected = true;
    if (request.headers.referer) entry.page = request.headers.referer;
    const requestBody = isTextType(request.headers['content-type']) ? this.requestSample?.text() : undefined;
    if (requestBody !== undefined) entry.requestBody = requestBody;
    this.forwarder.options.record(entry);
  }
}

/** A response head's headers as the browser receives them (for one proxy address), as the log keeps them, and what they say of the body; frozen, as answers share them. */
interface DerivedHeaders {
  proxyOrigin: string;
  contentType?: string;
  contentEncoding?: string;
  /** Whether the body is text the log keeps a sample of. */
  textBody: boolean;
  eventStream: boolean;
  /** Whether the page script is injected (unless the answer has no body or is partial). */
  html: boolean;
  downstream: OutgoingHttpHeaders;
  record: Record<string, string>;
}

// Keyed by the parser's headers object, which answers with the same head share (response-parser.ts).
const derived = new WeakMap<IncomingHttpHeaders, DerivedHeaders>();

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}
