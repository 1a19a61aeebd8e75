import {WorkbenchError, isWorkbenchError} from '../../core/errors.js';
import {formatSeconds} from './limits.js';

/** What went wrong, for the scheduler's backoff and the feed's last error. */
export interface FetchErrorDetails {
  url: string;
  reason: 'http_status' | 'timeout' | 'network' | 'cancelled' | 'redirect' | 'redirect_loop' | 'too_many_redirects';
  status?: number;
  retryAfterSeconds?: number | null;
}

/** A 4xx/5xx answer; 429 and 503 carry the origin's Retry-After. */
export function httpStatusError(url: string, response: Response, retryAfterSeconds: number | null): WorkbenchError {
  const status = response.status;
  const text = response.statusText ? ` ${response.statusText}` : '';
  const wait = retryAfterSeconds !== null && (status === 429 || status === 503) ? ` (retry after ${retryAfterSeconds} s)` : '';
  const details: FetchErrorDetails = {url, reason: 'http_status', status};
  if (status === 429 || status === 503) details.retryAfterSeconds = retryAfterSeconds;
  return new WorkbenchError('feed_unreachable', `HTTP ${status}${text} from ${url}${wait}`, details);
}

/** Turns whatever fetch or the body stream threw into a WorkbenchError naming the cause. */
export function transportError(error: unknown, url: string, timeoutMs: number, timedOut: boolean, callerSignal?: AbortSignal): WorkbenchError {
  if (isWorkbenchError(error)) return error as WorkbenchError;
  if (callerSignal?.aborted && !timedOut) {
    return new WorkbenchError('feed_unreachable', `fetching ${url} was cancelled`, {url, reason: 'cancelled'} satisfies FetchErrorDetails);
  }
  if (timedOut || (error instanceof Error && error.name === 'TimeoutError')) {
    return new WorkbenchError('feed_unreachable', `${url} timed out after ${formatSeconds(timeoutMs)}`, {url, reason: 'timeout'} satisfies FetchErrorDetails);
  }
  return new WorkbenchError('feed_unreachable', `cannot reach ${url}: ${networkCause(error)}`, {url, reason: 'network'} satisfies FetchErrorDetails);
}

// undici says "fetch failed" and hides the useful part (ECONNREFUSED, ENOTFOUND, a TLS error) in cause.
function networkCause(error: unknown): string {
  let deepest = error;
  while (deepest instanceof Error && deepest.cause instanceof Error) deepest = deepest.cause;
  if (!(deepest instanceof Error)) return String(deepest);
  const code = (deepest as {code?: unknown}).code;
  const message = deepest.message.split('\n')[0] ?? '';
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}
