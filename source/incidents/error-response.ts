import {describeError, WorkbenchError} from '../core/errors.js';

/**
 * The error responses of get_errors (spec 1, Errors): an object with one `error` string, for an
 * unknown proxy (`proxy "<id>" not found: <detail>`) and a failed daemon connection
 * (`daemon not connected: <detail>`).
 */

export function proxyNotFound(proxyId: string, knownIds: string[]): WorkbenchError {
  const detail = knownIds.length === 0 ? 'no proxy is running' : `running proxies: ${knownIds.join(', ')}`;
  return new WorkbenchError('proxy_not_found', `proxy "${proxyId}" not found: ${detail}`, {proxyId, knownIds});
}

export function daemonNotConnected(detail: string): WorkbenchError {
  return new WorkbenchError('daemon_not_connected', `daemon not connected: ${detail}`);
}

/** `{error: "<message>"}`: ours as worded, anything else reduced to its first line. */
export function formatErrorResponse(error: unknown): {error: string} {
  return {error: describeError(error)};
}
