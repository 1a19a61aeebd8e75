import {isWorkbenchError, describeError} from '../core/errors.js';

/** JSON-RPC codes the resource, prompt and completion handlers answer with (MCP 2025-11-25). */
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
/** MCP's "resource not found". */
export const RESOURCE_NOT_FOUND = -32002;

/**
 * An error the SDK sends as a JSON-RPC error with this code and this message as is (its
 * McpError would prefix "MCP error -32602:" to every sentence).
 */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** A tool's failure as a protocol error: not found is -32002, a refused argument -32602, the rest -32603; never a stack. */
export function asProtocolError(error: unknown): ProtocolError {
  if (error instanceof ProtocolError) return error;
  const message = describeError(error);
  if (isWorkbenchError(error) && (error.code === 'not_found' || error.code === 'proxy_not_found')) return new ProtocolError(RESOURCE_NOT_FOUND, message);
  if (isWorkbenchError(error) && error.code === 'invalid_argument') return new ProtocolError(INVALID_PARAMS, message);
  return new ProtocolError(INTERNAL_ERROR, message);
}
