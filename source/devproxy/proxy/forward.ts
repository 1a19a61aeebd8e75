import http, {type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse} from 'node:http';
import https from 'node:https';
import {MAX_DECODED_PAGE} from '../inject/content-coding.js';
import {injectHtml} from '../inject/inject-html.js';
import type {PageScript} from '../inject/page-script.js';
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

/** What the log says of a request the browser gave up on (nginx's "client closed request"). */
export const CLIENT_CLOSED = 499;

/** Forwards browser requests to the target over kept-alive connections. */
export class Forwarder {
  readonly agent: http.Agent;
  readonly transport: typeof http | typeof https;

  constructor(readonly options: ForwarderOptions) {
    const {target} = options;
    this.transport = target.secure ? https : http;
    // Keep-alive to the target: a new TCP connection per request costs more than the rest of the proxy.
    // A dev server's certificate is usually self-signed: the user named this target, so it is trusted as is.
    const agentOptions = {keepAlive: true, maxFreeSockets: 256, scheduling: 'lifo' as const, rejectUnauthorized: false};
    this.agent = target.secure ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
  }

  forward(request: IncomingMessage, response: ServerResponse): void {
    new Exchange(this, request, response).send(false);
  }

  close(): void {
    this.agent.destroy();
  }
}

/**
 * One request and its answer, streamed both ways (an event stream flushes as it arrives), recorded
 * once when it ends, however it ends: answered, broken off by the target, or given up by the browser.
 */
class Exchange {
  private readonly timestamp = Date.now();
  private readonly started = performance.now();
  private readonly method: string;
  private readonly url: string;
  private readonly proxyOrigin: string;
  private readonly trace: TraceContext;
  private readonly headers: OutgoingHttpHeaders;
  private readonly hasBody: boolean;
  private readonly requestSample?: BodySample;
  private upstream?: http.ClientRequest;
  private answered = false;
  private finished = false;
  private clientGone = false;
  // Filled in as the answer streams.
  private status = 0;
  private answerHeaders?: IncomingHttpHeaders;
  private sample?: BodySample;
  private bytes = 0;
  private injected = false;

  constructor(
    private readonly forwarder: Forwarder,
    private readonly request: IncomingMessage,
    private readonly response: ServerResponse,
  ) {
    this.method = request.method ?? 'GET';
    this.url = request.url ?? '/';
    this.proxyOrigin = `http://${request.headers.host ?? ''}`;
    this.trace = traceFor(request.headers.traceparent);
    this.headers = upstreamHeaders(request, forwarder.options.target, this.trace.header);
    const length = request.headers['content-length'];
    this.hasBody = length !== undefined ? length !== '0' : request.headers['transfer-encoding'] !== undefined;
    if (this.hasBody) this.requestSample = new BodySample();
    response.on('close', () => {
      if (response.writableFinished) return;
      this.clientGone = true;
      this.upstream?.destroy();
      this.finish(`the browser closed the connection`);
    });
  }

  send(retried: boolean): void {
    const {target, timeoutMs} = this.forwarder.options;
    const upstream = this.forwarder.transport.request({
      hostname: target.hostname,
      port: target.port,
      method: this.method,
      path: target.basePath + this.url,
      headers: this.headers,
      agent: this.forwarder.agent,
      setHost: false,
    });
    this.upstream = upstream;
    upstream.setTimeout(timeoutMs, () => upstream.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), {code: 'ETIMEDOUT'})));
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (this.answered || this.clientGone) return;
      if (upstream.reusedSocket && !retried && !this.hasBody && error.code === 'ECONNRESET') {
        // The target closed an idle kept-alive connection as we reused it: the request never reached it.
        this.send(true);
        return;
      }
      this.fail(error);
    });
    upstream.on('response', (answer) => this.answer(answer));
    if (this.hasBody) {
      this.request.on('data', (chunk: Buffer) => this.requestSample!.add(chunk));
      this.request.pipe(upstream);
    } else {
      upstream.end();
    }
  }

  private answer(answer: IncomingMessage): void {
    this.answered = true;
    const {request, response} = this;
    const status = answer.statusCode ?? 502;
    this.status = status;
    this.answerHeaders = answer.headers;
    const contentType = answer.headers['content-type'];
    // An event stream may be quiet for minutes; its silence is not a timeout.
    if (contentType?.startsWith('text/event-stream')) this.upstream!.setTimeout(0);
    const headers = downstreamHeaders(answer, this.forwarder.options.target, this.proxyOrigin);
    if (isTextType(contentType)) this.sample = new BodySample(answer.headers['content-encoding']);
    answer.on('error', (error) => this.breakOff(error));
    answer.on('close', () => {
      if (!answer.complete) this.breakOff();
    });
    response.on('finish', () => this.finish());
    const bodyless = request.method === 'HEAD' || status === 204 || status === 304;
    if (!bodyless && status !== 206 && contentType?.toLowerCase().includes('text/html')) {
      this.answerHtml(answer, headers);
      return;
    }
    response.writeHead(status, answer.statusMessage, headers);
    answer.on('data', (chunk: Buffer) => {
      this.bytes += chunk.length;
      this.sample?.add(chunk);
    });
    answer.pipe(response);
  }

  /** Buffers an HTML answer to inject the page script; a page too large to buffer streams on as it is. */
  private answerHtml(answer: IncomingMessage, headers: OutgoingHttpHeaders): void {
    const {response} = this;
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      this.bytes += chunk.length;
      this.sample?.add(chunk);
      if (this.bytes <= MAX_DECODED_PAGE) return;
      answer.off('data', onData);
      answer.off('end', onEnd);
      response.writeHead(this.status, answer.statusMessage, headers);
      for (const part of chunks) response.write(part);
      answer.on('data', (more: Buffer) => (this.bytes += more.length));
      answer.pipe(response);
    };
    const onEnd = () => {
      const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      const injected = injectHtml(raw, headers, this.forwarder.options.script, this.proxyOrigin.replace(/^http:/, 'ws:'));
      this.injected = injected !== undefined;
      response.writeHead(this.status, answer.statusMessage, injected?.headers ?? headers);
      response.end(injected?.body ?? raw);
    };
    answer.on('data', onData);
    answer.on('end', onEnd);
  }

  /** The target broke off its answer (or the browser left, which closes it too). */
  private breakOff(error?: unknown): void {
    if (this.clientGone || this.finished) return;
    this.fail(error ?? Object.assign(new Error('the response ended early'), {code: 'ECONNRESET'}));
  }

  private fail(error: unknown): void {
    if (this.finished) return;
    const {target, record} = this.forwarder.options;
    const {request, response, method, url} = this;
    const midStream = this.answered;
    const failure = describeFailure(error);
    const message = failureMessage(target, failure, midStream);
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
      requestHeaders: flatHeaders(request.headers),
      responseHeaders: this.answerHeaders ? flatHeaders(this.answerHeaders) : {},
      requestBytes: this.requestSample?.bytes ?? 0,
      responseBytes: this.bytes,
    };
    const contentType = this.answerHeaders?.['content-type'];
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

/** Header values as single strings (a repeated Set-Cookie joins with newlines, as it cannot with commas). */
function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  for (const name in headers) {
    if (typeof headers[name] !== 'string') return copyFlat(headers);
  }
  return headers as Record<string, string>;
}

function copyFlat(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join('\n') : value;
  }
  return flat;
}
