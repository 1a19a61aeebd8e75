import http, {type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse} from 'node:http';
import https from 'node:https';
import {Readable} from 'node:stream';
import {Pool, type Dispatcher} from 'undici';
import {MAX_DECODED_PAGE} from '../inject/content-coding.js';
import {injectHtml} from '../inject/inject-html.js';
import type {PageScript} from '../inject/page-script.js';
import {headerRecord} from '../log/header-record.js';
import type {NewTrafficEntry} from '../log/traffic-ring.js';
import type {HttpTraffic} from '../types.js';
import {BodySample, isTextType} from './body-sample.js';
import {downstreamHeaders} from './downstream-headers.js';
import {describeFailure, failureMessage, failurePage} from './failure.js';
import type {Target} from './target.js';
import {traceFor, type TraceContext} from './traceparent.js';
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
 * Forwards browser requests to the target over kept-alive connections. The client side is undici's
 * dispatcher API: it costs about half the CPU per request of node:http's client, which is most of
 * what a proxy spends. Upgrades (WebSockets) go through node:http (upgrade.ts), where the socket is
 * handed over whole.
 */
export class Forwarder {
  readonly pool: Pool;
  readonly transport: typeof http | typeof https;

  constructor(readonly options: ForwarderOptions) {
    const {target, timeoutMs} = options;
    this.transport = target.secure ? https : http;
    this.pool = new Pool(target.origin, {
      // As many connections as the browser keeps busy; an idle one is closed before a dev server's usual 5 s keep-alive ends.
      connections: null,
      pipelining: 1,
      keepAliveTimeout: 4000,
      headersTimeout: timeoutMs,
      bodyTimeout: 0,
      // A dev server's certificate is usually self-signed: the user named this target, so it is trusted as is.
      connect: {rejectUnauthorized: false, noDelay: true},
    });
  }

  forward(request: IncomingMessage, response: ServerResponse): void {
    new Exchange(this, request, response).send();
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}

/**
 * One request and its answer, streamed both ways (an event stream flushes as it arrives), recorded
 * once when it ends, however it ends: answered, broken off by the target, or given up by the browser.
 */
class Exchange implements Dispatcher.DispatchHandler {
  private readonly timestamp = Date.now();
  private readonly started = performance.now();
  private readonly method: string;
  private readonly url: string;
  private readonly proxyOrigin: string;
  private readonly trace: TraceContext;
  private readonly requestSample?: BodySample;
  private controller?: Dispatcher.DispatchController;
  private answered = false;
  private finished = false;
  private clientGone = false;
  // Filled in as the answer streams.
  private status = 0;
  private statusMessage?: string;
  private answerHeaders?: IncomingHttpHeaders;
  private sample?: BodySample;
  private bytes = 0;
  private injected = false;
  private idle?: NodeJS.Timeout;
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
    response.on('close', () => {
      if (response.writableFinished) return;
      this.clientGone = true;
      this.controller?.abort(new Error('the browser closed the connection'));
      this.finish('the browser closed the connection');
    });
  }

  send(): void {
    const {target} = this.forwarder.options;
    const headers = upstreamHeaders(this.request, target, this.trace.header);
    try {
      this.forwarder.pool.dispatch({method: this.method, path: target.basePath + this.url, headers: headers as Record<string, string>, body: this.requestBody()}, this);
    } catch (error) {
      this.fail(error);
    }
  }

  /** The browser's body as it streams, its first bytes kept on the way. */
  private requestBody(): Readable | null {
    const sample = this.requestSample;
    if (!sample) return null;
    const request = this.request;
    return Readable.from(
      (async function* () {
        for await (const chunk of request as AsyncIterable<Buffer>) {
          sample.add(chunk);
          yield chunk;
        }
      })(),
    );
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.clientGone) controller.abort(new Error('the browser closed the connection'));
  }

  onResponseStart(controller: Dispatcher.DispatchController, status: number, received: IncomingHttpHeaders, statusMessage?: string): void {
    this.answered = true;
    this.status = status;
    this.statusMessage = statusMessage;
    this.answerHeaders = received;
    const contentType = received['content-type'];
    const headers = downstreamHeaders(received, this.forwarder.options.target, this.proxyOrigin);
    if (isTextType(contentType)) this.sample = new BodySample(headerText(received['content-encoding']));
    // An event stream may be quiet for minutes; its silence is not a timeout.
    if (!contentType?.startsWith('text/event-stream')) this.watchIdle(controller);
    const bodyless = this.method === 'HEAD' || status === 204 || status === 304;
    if (!bodyless && status !== 206 && contentType?.toLowerCase().includes('text/html')) {
      this.html = {chunks: [], headers};
      return;
    }
    this.response.writeHead(status, statusMessage, headers);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.idle?.refresh();
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
    if (!this.response.write(chunk)) {
      controller.pause();
      this.response.once('drain', () => controller.resume());
    }
  }

  onResponseEnd(): void {
    clearTimeout(this.idle);
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
      this.response.end();
    }
    this.finish();
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    clearTimeout(this.idle);
    if (this.clientGone) return;
    this.fail(error);
  }

  /** Each part of a body must come within the timeout (undici's own body timeout cannot tell an event stream apart). */
  private watchIdle(controller: Dispatcher.DispatchController): void {
    const {timeoutMs} = this.forwarder.options;
    this.idle = setTimeout(() => controller.abort(Object.assign(new Error(`no data within ${timeoutMs} ms`), {code: 'ETIMEDOUT'})), timeoutMs);
    this.idle.unref();
  }

  private fail(error: unknown): void {
    if (this.finished) return;
    const {target, record} = this.forwarder.options;
    const {request, response, method, url} = this;
    const failure = describeFailure(error);
    const message = failureMessage(target, failure, this.answered);
    record({type: 'diagnostic', level: 'error', category: failure.code, message, timestamp: Date.now(), method, url});
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
      responseHeaders: this.answerHeaders ? headerRecord(this.answerHeaders) : {},
      requestBytes: this.requestSample?.bytes ?? 0,
      responseBytes: this.bytes,
    };
    const contentType = headerText(this.answerHeaders?.['content-type']);
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

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}
