import type {Transport} from '@modelcontextprotocol/sdk/shared/transport.js';
import {CallToolRequestSchema, InitializeRequestSchema, isJSONRPCRequest} from '@modelcontextprotocol/sdk/types.js';

// Requests whose params the SDK would reject with -32603 (its parse error is not mapped): -32602 here.
const SCHEMAS = {initialize: InitializeRequestSchema, 'tools/call': CallToolRequestSchema} as const;

/**
 * Answers a known request with malformed params (an `initialize` without `protocolVersion`)
 * with JSON-RPC's -32602 Invalid params, naming the field, instead of the SDK's internal error.
 * Wraps the handler the server set on the transport; call it after `server.connect`.
 */
export function guardRequestParams(transport: Transport): void {
  const inner = transport.onmessage;
  if (!inner) return;
  transport.onmessage = (message, extra) => {
    if (isJSONRPCRequest(message) && message.method in SCHEMAS) {
      const parsed = SCHEMAS[message.method as keyof typeof SCHEMAS].safeParse(message);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue?.path.filter((part) => part !== 'params').join('.') || 'params';
        void transport.send({jsonrpc: '2.0', id: message.id, error: {code: -32602, message: `Invalid params for ${message.method}: ${where}: ${issue?.message ?? 'malformed'}`}});
        return;
      }
    }
    inner(message, extra);
  };
}
