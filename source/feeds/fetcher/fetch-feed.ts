import type {FetchOptions, FetchResult} from '../contracts.js';
import {maxAgeSeconds, retryAfterSeconds} from './cache-headers.js';
import {httpStatusError, transportError} from './fetch-errors.js';
import {parseFeedUrl} from './feed-url.js';
import {DEFAULT_MAX_BYTES, DEFAULT_MAX_REDIRECTS, DEFAULT_TIMEOUT_MS, readCappedBody} from './limits.js';
import {RedirectChain} from './redirects.js';
import {requestHeaders} from './request-headers.js';

/**
 * One polite HTTP fetch of a feed (or a page, for discovery): conditional GET, redirects followed
 * by hand, one deadline over headers and body, a body cap. Every failure is a WorkbenchError:
 * invalid_argument (not http/https), feed_unreachable (status, timeout, network, redirects; see
 * FetchErrorDetails in its details), payload_too_large.
 */
export async function fetchFeed(url: string, options: FetchOptions = {}): Promise<FetchResult> {
  const start = parseFeedUrl(url);
  const timeoutMs = positive(options.timeoutMs, DEFAULT_TIMEOUT_MS);
  const maxBytes = positive(options.maxBytes, DEFAULT_MAX_BYTES);
  const maxRedirects = Math.max(0, Math.floor(options.maxRedirects ?? DEFAULT_MAX_REDIRECTS));
  const headers = requestHeaders(options);
  const chain = new RedirectChain(start.href, maxRedirects);
  const deadline = new Deadline(timeoutMs, options.signal);
  try {
    for (;;) {
      const response = await fetch(chain.current, {method: 'GET', headers, redirect: 'manual', signal: deadline.signal});
      let next: string | null;
      try {
        next = chain.next(response);
      } catch (error) {
        await discard(response);
        throw error;
      }
      if (next !== null) {
        await discard(response);
        continue;
      }
      return await finish(response, chain, options, maxBytes);
    }
  } catch (error) {
    throw transportError(error, chain.current, timeoutMs, deadline.timedOut, options.signal);
  } finally {
    deadline.release();
  }
}

/**
 * One abort signal for the whole fetch (headers, redirects, body): fired by the timeout or the
 * caller's signal. A timer of our own, cleared when the fetch ends, tells a timeout from a
 * cancellation without relying on the abort reason, and needs no AbortSignal.any.
 */
class Deadline {
  readonly signal: AbortSignal;
  timedOut = false;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onCallerAbort = () => this.controller.abort(this.caller?.reason);

  constructor(
    timeoutMs: number,
    private readonly caller?: AbortSignal,
  ) {
    this.signal = this.controller.signal;
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort(new DOMException(`timed out after ${timeoutMs} ms`, 'TimeoutError'));
    }, timeoutMs);
    if (caller?.aborted) this.onCallerAbort();
    else caller?.addEventListener('abort', this.onCallerAbort, {once: true});
  }

  release(): void {
    clearTimeout(this.timer);
    this.caller?.removeEventListener('abort', this.onCallerAbort);
  }
}

async function finish(response: Response, chain: RedirectChain, options: FetchOptions, maxBytes: number): Promise<FetchResult> {
  const url = chain.current;
  const now = Date.now();
  const retryAfter = retryAfterSeconds(response.headers, now);
  const common = {
    contentType: response.headers.get('content-type'),
    finalUrl: url,
    permanentUrl: chain.permanentUrl,
    maxAgeSeconds: maxAgeSeconds(response.headers, now),
    retryAfterSeconds: retryAfter,
  };
  if (response.status === 304) {
    await discard(response);
    // A 304 may refresh the validators; when it does not, the stored ones stay valid.
    return {
      ...common,
      status: 'not_modified',
      body: Buffer.alloc(0),
      etag: response.headers.get('etag') ?? options.etag ?? null,
      lastModified: response.headers.get('last-modified') ?? options.lastModified ?? null,
    };
  }
  if (response.status < 200 || response.status > 299) {
    await discard(response);
    throw httpStatusError(url, response, retryAfter);
  }
  const body = await readCappedBody(response, maxBytes, url);
  return {...common, status: 'ok', body, etag: response.headers.get('etag'), lastModified: response.headers.get('last-modified')};
}

// Redirect and error bodies are never read; cancelling frees the connection at once.
async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}
