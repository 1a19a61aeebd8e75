/**
 * The one error type of workbench. Each face maps it: the CLI prints `message` on one line and
 * exits 1, MCP tools return it as a tool error, HTTP servers answer `{error:{code,message}}`.
 * A WorkbenchError is always the user's (or the environment's) fault and never shows a stack.
 */
export type ErrorCode =
  | 'invalid_argument'
  | 'not_found'
  | 'config_invalid'
  | 'daemon_not_connected'
  | 'proxy_not_found'
  | 'no_page'
  | 'conflict'
  | 'invalid_body'
  | 'unauthorized'
  | 'forbidden'
  | 'feed_unreachable'
  | 'not_a_feed'
  | 'payload_too_large'
  | 'bad_request'
  | 'uri_too_long'
  | 'headers_too_large'
  | 'request_timeout'
  | 'host_not_allowed'
  | 'cross_site_refused'
  | 'disk_full'
  | 'database_unavailable'
  | 'browser_unavailable'
  | 'identity_provider_unavailable'
  | 'page_unreachable'
  | 'page_error'
  | 'model_unreachable'
  | 'model_error'
  | 'sink_unreachable'
  | 'internal';

/**
 * The HTTP status each code answers with, for every server (servers/kit). A new code must say
 * its status here; 4xx are the caller's to fix, 5xx the server's or its environment's.
 */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  invalid_argument: 400,
  invalid_body: 400,
  config_invalid: 400,
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  host_not_allowed: 403,
  cross_site_refused: 403,
  not_found: 404,
  proxy_not_found: 404,
  request_timeout: 408,
  conflict: 409,
  no_page: 409,
  payload_too_large: 413,
  uri_too_long: 414,
  not_a_feed: 422,
  page_error: 422,
  headers_too_large: 431,
  internal: 500,
  feed_unreachable: 502,
  page_unreachable: 502,
  model_unreachable: 502,
  sink_unreachable: 502,
  model_error: 502,
  daemon_not_connected: 503,
  database_unavailable: 503,
  browser_unavailable: 503,
  identity_provider_unavailable: 503,
  disk_full: 507,
};

/** Every code there is (an HTTP client keeps a code it knows, and maps others by status). */
export const ERROR_CODES = Object.keys(HTTP_STATUS) as ErrorCode[];

export class WorkbenchError extends Error {
  readonly code: ErrorCode;
  readonly details?: unknown;

  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = 'WorkbenchError';
    this.code = code;
    this.details = details;
  }
}

export function isWorkbenchError(value: unknown): value is WorkbenchError {
  return value instanceof WorkbenchError || (typeof value === 'object' && value !== null && (value as {name?: string}).name === 'WorkbenchError');
}

/** A message fit for a user: ours as is, anything else reduced to its first line. */
/**
 * An error's whole message where it is meant to be read whole (a pane's error row, stderr): the
 * several lines a WorkbenchError carries as `details.lines` (what was tried and how to fix it),
 * else the first line, as describeError.
 */
export function describeErrorInFull(error: unknown): string {
  const lines = isWorkbenchError(error) ? (error.details as {lines?: unknown} | undefined)?.lines : undefined;
  return typeof lines === 'string' ? lines.trimEnd() : describeError(error);
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message.split('\n')[0] ?? String(error);
  return String(error);
}

// Errno and driver codes of a full disk: the OS, SQLite, PostgreSQL (class 53100), MySQL/MariaDB.
const DISK_FULL = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL', '53100', 'ER_DISK_FULL']);
// A database that cannot be reached or opened: network errors, pool timeouts, SQLite files that
// cannot be opened, PostgreSQL connection classes (08…, 57P01–03 shut down), MySQL lost connections.
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'SQLITE_CANTOPEN',
  'SQLITE_NOTADB',
  'SQLITE_IOERR',
  'SQLITE_READONLY',
  'SQLITE_BUSY',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
  'PROTOCOL_CONNECTION_LOST',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
]);

/**
 * What the environment did, when an error is a full disk or an unreachable database: looked up
 * on the error and its causes (knex and drivers wrap; a dual-stack connect fails with an
 * AggregateError). Anything else is undefined: a bug, not the environment.
 */
export function environmentFault(error: unknown): 'disk_full' | 'database_unavailable' | undefined {
  const seen = new Set<unknown>();
  const queue = [error];
  while (queue.length > 0) {
    const item = queue.shift();
    if (typeof item !== 'object' || item === null || seen.has(item)) continue;
    seen.add(item);
    const {code, name, message, cause, errors} = item as {code?: unknown; name?: unknown; message?: unknown; cause?: unknown; errors?: unknown};
    if (typeof code === 'string' && DISK_FULL.has(code)) return 'disk_full';
    if (typeof code === 'string' && UNREACHABLE.has(code)) return 'database_unavailable';
    // knex's pool gave up waiting for a connection; pg says this without a code when the server goes.
    // (knex puts the SQL before a driver's message: "select … - Connection terminated unexpectedly".)
    if (name === 'KnexTimeoutError' || (typeof message === 'string' && /(^| - )Connection terminated( unexpectedly)?$/.test(message))) return 'database_unavailable';
    // PostgreSQL's 55000 for a database closed to new sessions (ALTER DATABASE … ALLOW_CONNECTIONS false, during maintenance).
    if (code === '55000' && typeof message === 'string' && /is not currently accepting connections/.test(message)) return 'database_unavailable';
    queue.push(cause, ...(Array.isArray(errors) ? errors : []));
  }
  return undefined;
}
