import type {FetchOptions, FetchResult} from '../contracts.js';
import {AddressGuard} from '../../net/address-policy.js';
import {Deadline, openRequest, type OutboundResponse} from '../../net/http-client.js';
import {maxAgeSeconds, retryAfterSeconds} from './cache-headers.js';
import {httpStatusError, transportError} from './fetch-errors.js';
import {parseFeedUrl} from './feed-url.js';
import {DEFAULT_MAX_BYTES, DEFAULT_MAX_REDIRECTS, DEFAULT_TIMEOUT_MS} from './limits.js';
import {RedirectChain} from './redirects.js';
import {requestHeaders} from './request-headers.js';

/**
 * One polite HTTP fetch of a feed (or a page, for discovery) through the outbound client
 * (source/net): conditional GET, redirects followed by hand, one deadline over every hop and the
 * body, a body cap on the wire and once decompressed, and the address policy over the whole
 * chain (a redirect from a public address never reaches a private one). Every failure is a
 * WorkbenchError: invalid_argument (not http/https), feed_unreachable (status, timeout, network,
 * redirects, refused address; see FetchErrorDetails in its details), payload_too_large.
 */
export async function fetchFeed(url: string, options: FetchOptions = {}): Promise<FetchResult> {
  const start = parseFeedUrl(url);
  const timeoutMs = positive(options.timeoutMs, DEFAULT_TIMEOUT_MS);
  const maxBytes = positive(options.maxBytes, DEFAULT_MAX_BYTES);
  const maxRedirects = Math.max(0, Math.floor(options.maxRedirects ?? DEFAULT_MAX_REDIRECTS));
  const headers = requestHeaders(options);
  const chain = new RedirectChain(start.href, maxRedirects);
  const deadline = new Deadline(timeoutMs, options.signal);
  const guard = new AddressGuard({allowPrivate: options.allowPrivate ?? true}, options.network);
  try {
    for (;;) {
      const response = await openRequest(new URL(chain.current), {headers, deadline, guard});
      let next: string | null;
      try {
        next = chain.next(response);
      } catch (error) {
        response.discard();
        throw error;
      }
      if (next !== null) {
        response.discard();
        continue;
      }
      return {...(await finish(response, chain, options, maxBytes)), viaPublic: guard.viaPublic};
    }
  } catch (error) {
    throw transportError(error, chain.current);
  } finally {
    deadline.release();
  }
}

async function finish(response: OutboundResponse, chain: RedirectChain, options: FetchOptions, maxBytes: number): Promise<FetchResult> {
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
    response.discard();
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
    response.discard();
    throw httpStatusError(url, response, retryAfter);
  }
  const body = await response.read(maxBytes, {decompress: true});
  return {...common, status: 'ok', body, etag: response.headers.get('etag'), lastModified: response.headers.get('last-modified')};
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}
