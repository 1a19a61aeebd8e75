import {isOutboundError, sendRequest, type Network} from '../../../net/index.js';
import {WorkbenchError} from '../../../core/errors.js';
import type {RateLimit} from '../types.js';
import {readRateLimit} from './rate-limit.js';

const MAX_BYTES = 5 * 1024 * 1024;
const TIMEOUT_MS = 20_000;
const USER_AGENT = 'workbench-reader/1.0 (feed reader ingestor; +https://github.com/workbench)';

export interface JsonRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** JSON (an object) or a form (URLSearchParams). */
  body?: unknown;
  /** The config field a 401/403 is about (`accessToken`), named in the message, never its value. */
  credentialField: string | null;
  /** `Mastodon`, `Bluesky`, `Reddit`: who answered, in messages. */
  network: string;
  signal?: AbortSignal;
  networkStack?: Network;
  timeoutMs?: number;
  now: Date;
}

export interface JsonAnswer {
  body: unknown;
  headers: {get(name: string): string | null};
  rateLimit: RateLimit | null;
}

/**
 * One request to a network's API, its JSON answer parsed. The instance URL is one the user
 * typed, so a private or loopback host is allowed (a self-hosted instance); link-local and
 * metadata addresses are refused by the address policy whatever the config says.
 * Failures are WorkbenchErrors a user can act on: unauthorized (names the credential field),
 * feed_unreachable (with details.rateLimit when the network said to wait), not_a_feed (not JSON).
 */
export async function requestJson(url: URL, request: JsonRequest): Promise<JsonAnswer> {
  const headers: Record<string, string> = {accept: 'application/json', 'user-agent': USER_AGENT, ...request.headers};
  let body: string | undefined;
  if (request.body instanceof URLSearchParams) {
    body = request.body.toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else if (request.body !== undefined) {
    body = JSON.stringify(request.body);
    headers['content-type'] = 'application/json';
  }
  const host = url.host;
  let response;
  try {
    response = await sendRequest(url, {
      method: request.method ?? 'GET',
      headers,
      body,
      timeoutMs: request.timeoutMs ?? TIMEOUT_MS,
      maxBytes: MAX_BYTES,
      decompress: true,
      policy: {allowPrivate: true},
      network: request.networkStack,
      signal: request.signal,
    });
  } catch (error) {
    if (isOutboundError(error)) throw new WorkbenchError('feed_unreachable', `${request.network} at ${host}: ${error.message}`);
    throw error;
  }
  const rateLimit = readRateLimit(response.headers, request.now);
  const status = response.status;
  if (status === 401 || status === 403) {
    const field = request.credentialField ? `check the config's ${request.credentialField}` : 'this needs a credential in the config';
    throw new WorkbenchError('unauthorized', `${request.network} at ${host} refused the request (${status}): ${field}`);
  }
  if (status === 429 || (status === 503 && rateLimit?.retryAfterSeconds != null)) {
    const wait = rateLimit?.retryAfterSeconds != null ? `retry after ${rateLimit.retryAfterSeconds} s` : rateLimit?.resetAt ? `retry after ${rateLimit.resetAt}` : 'retry later';
    throw new WorkbenchError('feed_unreachable', `rate limited by ${request.network} at ${host} (${status}): ${wait}`, {rateLimit: rateLimit ?? emptyLimit()});
  }
  if (status === 404) throw new WorkbenchError('invalid_argument', `${request.network} at ${host} has no ${url.pathname} (404): check what the config follows`);
  if (status < 200 || status >= 300)
    throw new WorkbenchError('feed_unreachable', `${request.network} at ${host} answered ${status}${response.statusText ? ` ${response.statusText}` : ''}`);
  const text = response.body.toString('utf8');
  try {
    return {body: JSON.parse(text) as unknown, headers: response.headers, rateLimit};
  } catch {
    const what = /^\s*</.test(text) ? 'an HTML page' : 'something that is not JSON';
    throw new WorkbenchError('not_a_feed', `${request.network} at ${host} answered ${what}, not the API's JSON: check the instance URL`);
  }
}

function emptyLimit(): RateLimit {
  return {limit: null, remaining: null, resetAt: null, retryAfterSeconds: null};
}

/** Thrown when an answer parsed as JSON but has not the documented shape. */
export function badShape(network: string, url: URL, what: string): WorkbenchError {
  return new WorkbenchError('not_a_feed', `${network} at ${url.host} answered JSON without ${what}: is this a ${network} server?`);
}
