import {request as httpRequest, type IncomingHttpHeaders, type IncomingMessage} from 'node:http';
import {request as httpsRequest} from 'node:https';
import {AddressGuard, type AddressPolicy} from './address-policy.js';
import {OutboundError} from './outbound-error.js';
import type {Network} from './safe-lookup.js';

/**
 * The one outbound HTTP client of workbench (the reader's fetcher, the CLI's reader client;
 * next the gateway, the proxy's snapshots and the agent's model calls). On node:http, not fetch:
 * loading undici costs a CLI command ~120 ms. It owns what every outbound request needs:
 * - a deadline over connect, headers and body (Deadline, one per exchange or redirect chain);
 * - a cap on the body as sent and, separately checked, once decompressed (gzip, deflate, br):
 *   a compression bomb stops at the cap with its own message;
 * - the address policy (address-policy.ts), checked on the address actually connected to;
 * - no connection reuse (agent: false), so every request resolves and is checked afresh.
 * Every failure is an OutboundError (outbound-error.ts).
 */

/** Read-only response headers, the part of WHATWG Headers the callers use. */
export interface HeaderSource {
  get(name: string): string | null;
}

export interface OutboundRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  deadline: Deadline;
  /** The chain's guard; its policy and network apply to this request. */
  guard: AddressGuard;
}

export interface OutboundResponse {
  status: number;
  statusText: string;
  headers: HeaderSource;
  /**
   * The body, capped at maxBytes on the wire and, when `decompress`, decoded (gzip, deflate,
   * br) and capped at maxBytes again. Throws OutboundError too_large past either cap.
   */
  read(maxBytes: number, options?: {decompress?: boolean}): Promise<Buffer>;
  /** Drops the body unread and frees the socket (redirects, error statuses). */
  discard(): void;
}

/**
 * One abort signal for a whole exchange (headers, redirects, body), fired by the timeout or the
 * caller's signal. Its own timer tells a timeout from a cancellation without relying on the
 * abort reason. `release()` when done.
 */
export class Deadline {
  readonly signal: AbortSignal;
  timedOut = false;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onCallerAbort = () => this.controller.abort(this.caller?.reason);

  constructor(
    readonly timeoutMs: number,
    private readonly caller?: AbortSignal,
  ) {
    this.signal = this.controller.signal;
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort(new Error(`timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    if (caller?.aborted) this.onCallerAbort();
    else caller?.addEventListener('abort', this.onCallerAbort, {once: true});
  }

  release(): void {
    clearTimeout(this.timer);
    this.caller?.removeEventListener('abort', this.onCallerAbort);
  }

  /** Whatever an exchange threw, as an OutboundError that says timeout or cancelled when this deadline fired. */
  explain(error: unknown, url: string): OutboundError {
    if (error instanceof OutboundError) return error;
    if (this.timedOut) return new OutboundError('timeout', `${url} timed out after ${formatSeconds(this.timeoutMs)}`, url);
    if (this.signal.aborted) return new OutboundError('cancelled', `fetching ${url} was cancelled`, url);
    return networkError(error, url);
  }
}

/** Sends one request and resolves with the response head; the body is read (or discarded) by the caller. */
export function openRequest(url: URL, options: OutboundRequest): Promise<OutboundResponse> {
  const {deadline, guard} = options;
  return new Promise<OutboundResponse>((resolve, reject) => {
    const fail = (error: unknown) => reject(deadline.explain(error, url.href));
    if (deadline.signal.aborted) return fail(deadline.signal.reason);
    try {
      guard.checkLiteral(url);
    } catch (error) {
      return fail(error);
    }
    const body = options.body === undefined ? undefined : Buffer.from(options.body);
    const headers = body ? {...options.headers, 'content-length': String(body.length)} : {...options.headers};
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, {method: options.method ?? 'GET', headers, agent: false, lookup: guard.lookupFor(url)}, (response) => {
      deadline.signal.removeEventListener('abort', onAbort);
      resolve(responseOf(response, url.href, deadline));
    });
    const onAbort = () => req.destroy(deadline.signal.reason instanceof Error ? deadline.signal.reason : new Error('aborted'));
    deadline.signal.addEventListener('abort', onAbort, {once: true});
    req.on('error', (error) => {
      deadline.signal.removeEventListener('abort', onAbort);
      fail(error);
    });
    req.end(body);
  });
}

export interface SimpleRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  timeoutMs: number;
  maxBytes: number;
  decompress?: boolean;
  policy: AddressPolicy;
  network?: Network;
  signal?: AbortSignal;
}

export interface SimpleResponse {
  status: number;
  statusText: string;
  headers: HeaderSource;
  body: Buffer;
}

/** One request, no redirects followed, body read whole under the caps and the deadline. */
export async function sendRequest(url: URL, options: SimpleRequest): Promise<SimpleResponse> {
  const deadline = new Deadline(options.timeoutMs, options.signal);
  try {
    const guard = new AddressGuard(options.policy, options.network);
    const response = await openRequest(url, {method: options.method, headers: options.headers, body: options.body, deadline, guard});
    const body = await response.read(options.maxBytes, {decompress: options.decompress});
    return {status: response.status, statusText: response.statusText, headers: response.headers, body};
  } finally {
    deadline.release();
  }
}

function responseOf(response: IncomingMessage, url: string, deadline: Deadline): OutboundResponse {
  const headers = headerSource(response.headers);
  let settled = false;
  const onAbort = () => response.destroy(new Error('aborted'));
  deadline.signal.addEventListener('abort', onAbort, {once: true});
  const done = () => {
    settled = true;
    deadline.signal.removeEventListener('abort', onAbort);
  };
  // An error after discard() or with nobody reading must not go unhandled.
  response.on('error', () => undefined);
  return {
    status: response.statusCode ?? 0,
    statusText: response.statusMessage ?? '',
    headers,
    async read(maxBytes, readOptions = {}) {
      if (settled) throw new Error('the response body was already consumed');
      try {
        const declared = Number(headers.get('content-length') ?? Number.NaN);
        if (Number.isFinite(declared) && declared > maxBytes) {
          response.destroy();
          throw tooLarge(url, maxBytes, false);
        }
        const raw = await readCapped(response, maxBytes, url);
        return readOptions.decompress ? await decode(raw, headers.get('content-encoding'), maxBytes, url) : raw;
      } catch (error) {
        throw deadline.explain(error, url);
      } finally {
        done();
      }
    },
    discard() {
      done();
      response.destroy();
    },
  };
}

async function readCapped(response: IncomingMessage, maxBytes: number, url: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) {
      response.destroy();
      throw tooLarge(url, maxBytes, false);
    }
    chunks.push(chunk);
  }
  // A connection cut before the declared length ends the iteration quietly; say so.
  if (!response.complete) throw new OutboundError('network', `cannot reach ${url}: the connection closed before the whole body arrived`, url);
  return Buffer.concat(chunks, total);
}

/**
 * Decodes a body with zlib's one-shot functions (run off the main thread) and `maxOutputLength`:
 * zlib stops as soon as the output passes the cap, so a bomb costs at most the cap in memory.
 */
async function decode(raw: Buffer, contentEncoding: string | null, maxBytes: number, url: string): Promise<Buffer> {
  const encoding = (contentEncoding ?? '').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity' || raw.length === 0) return raw;
  const zlib = await import('node:zlib');
  const {promisify} = await import('node:util');
  const options = {maxOutputLength: Math.max(1, maxBytes)};
  try {
    if (encoding === 'gzip' || encoding === 'x-gzip') return await promisify(zlib.gunzip)(raw, options);
    if (encoding === 'br') return await promisify(zlib.brotliDecompress)(raw, options);
    if (encoding === 'deflate') {
      // "deflate" is zlib-wrapped by the spec and raw in some servers' hands.
      return await promisify(zlib.inflate)(raw, options).catch((error: unknown) => (isTooLarge(error) ? Promise.reject(error) : promisify(zlib.inflateRaw)(raw, options)));
    }
  } catch (error) {
    if (isTooLarge(error)) throw tooLarge(url, maxBytes, true);
    throw new OutboundError('network', `cannot decode the ${encoding} body of ${url}: ${(error as Error).message}`, url);
  }
  // An encoding we did not ask for: pass the bytes on as they are.
  return raw;
}

function isTooLarge(error: unknown): boolean {
  return error instanceof RangeError || (error as {code?: unknown} | null)?.code === 'ERR_BUFFER_TOO_LARGE';
}

function tooLarge(url: string, maxBytes: number, decompressed: boolean): OutboundError {
  const message = decompressed
    ? `the response from ${url} is larger than ${formatBytes(maxBytes)} once decompressed`
    : `the response from ${url} is larger than ${formatBytes(maxBytes)}`;
  return Object.assign(new OutboundError('too_large', message, url), {maxBytes, decompressed});
}

// Node's errors hide the useful part (ECONNREFUSED, ENOTFOUND, a TLS error) in code or cause.
function networkError(error: unknown, url: string): OutboundError {
  let deepest = error;
  while (deepest instanceof Error && deepest.cause instanceof Error) deepest = deepest.cause;
  if (deepest instanceof AggregateError && deepest.errors[0] instanceof Error) deepest = deepest.errors[0];
  if (!(deepest instanceof Error)) return new OutboundError('network', `cannot reach ${url}: ${String(deepest)}`, url);
  const code = (deepest as {code?: unknown}).code;
  const message = deepest.message.split('\n')[0] ?? '';
  const cause = typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message || (typeof code === 'string' ? code : 'connection failed');
  return new OutboundError('network', `cannot reach ${url}: ${cause}`, url, typeof code === 'string' ? code : undefined);
}

function headerSource(headers: IncomingHttpHeaders): HeaderSource {
  return {
    get(name) {
      const value = headers[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(', ') : String(value);
    },
  };
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${trimNumber(bytes / (1024 * 1024))} MB`;
  if (bytes >= 1024) return `${trimNumber(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

export function formatSeconds(ms: number): string {
  return `${trimNumber(ms / 1000)} s`;
}

function trimNumber(value: number): string {
  return String(Math.round(value * 100) / 100);
}
