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
  | 'conflict'
  | 'invalid_body'
  | 'feed_unreachable'
  | 'not_a_feed'
  | 'payload_too_large'
  | 'internal';

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
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message.split('\n')[0] ?? String(error);
  return String(error);
}
