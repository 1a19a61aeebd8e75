import {WorkbenchError, describeError, isWorkbenchError} from '../../core/errors.js';
import {isOutboundError} from '../../net/outbound-error.js';

/** What went wrong, for the scheduler's backoff and the feed's last error. */
export interface FetchErrorDetails {
  url: string;
  reason: 'http_status' | 'timeout' | 'network' | 'cancelled' | 'redirect' | 'redirect_loop' | 'too_many_redirects' | 'refused';
  status?: number;
  retryAfterSeconds?: number | null;
}

/** A 4xx/5xx answer; 429 and 503 carry the origin's Retry-After. */
export function httpStatusError(url: string, response: {status: number; statusText: string}, retryAfterSeconds: number | null): WorkbenchError {
  const status = response.status;
  const text = response.statusText ? ` ${response.statusText}` : '';
  const wait = retryAfterSeconds !== null && (status === 429 || status === 503) ? ` (retry after ${retryAfterSeconds} s)` : '';
  const details: FetchErrorDetails = {url, reason: 'http_status', status};
  if (status === 429 || status === 503) details.retryAfterSeconds = retryAfterSeconds;
  return new WorkbenchError('feed_unreachable', `HTTP ${status}${text} from ${url}${wait}`, details);
}

/**
 * The outbound client's failure as a WorkbenchError: feed_unreachable with the reason in its
 * details (refused by the address policy, timeout, cancelled, network), payload_too_large for a
 * body over the cap (on the wire or once decompressed).
 */
export function transportError(error: unknown, url: string): WorkbenchError {
  if (isWorkbenchError(error)) return error as WorkbenchError;
  if (!isOutboundError(error)) return new WorkbenchError('feed_unreachable', `cannot reach ${url}: ${describeError(error)}`, {url, reason: 'network'} satisfies FetchErrorDetails);
  if (error.kind === 'too_large') {
    const {maxBytes, decompressed} = error as {maxBytes?: number; decompressed?: boolean};
    return new WorkbenchError('payload_too_large', error.message, {url: error.url, maxBytes, decompressed: decompressed === true});
  }
  return new WorkbenchError('feed_unreachable', error.message, {url: error.url, reason: error.kind} satisfies FetchErrorDetails);
}
