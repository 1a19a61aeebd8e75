import type {Transport} from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  isJSONRPCRequest,
  ListResourcesRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {toolError} from './answer.js';
import {badProgressToken} from './progress-token.js';

// Requests whose params the SDK would reject with -32603 (its parse error is not mapped): -32602 here.
const SCHEMAS = {
  initialize: InitializeRequestSchema,
  'tools/call': CallToolRequestSchema,
  'resources/list': ListResourcesRequestSchema,
  'resources/read': ReadResourceRequestSchema,
  'resources/subscribe': SubscribeRequestSchema,
  'resources/unsubscribe': UnsubscribeRequestSchema,
  'prompts/get': GetPromptRequestSchema,
  'completion/complete': CompleteRequestSchema,
  'logging/setLevel': SetLevelRequestSchema,
} as const;

/**
 * Answers a known request with malformed params (an `initialize` without `protocolVersion`)
 * with JSON-RPC's -32602 Invalid params, naming the field, instead of the SDK's internal error.
 * A `tools/call` whose `arguments` are there but no object (null, a list) is a mistake in the
 * tool's arguments, so it gets the tool error every other bad argument gets (`{"error": …}` with
 * isError), not a protocol error. A request the line guard marked for a bad progress token (of
 * any method) gets -32602 too. Wraps the handler the server set on the transport; call it
 * after `server.connect`.
 */
export function guardRequestParams(transport: Transport): void {
  const inner = transport.onmessage;
  if (!inner) return;
  transport.onmessage = (message, extra) => {
    const badToken = isJSONRPCRequest(message) ? badProgressToken(message.params) : undefined;
    if (isJSONRPCRequest(message) && badToken) {
      const error = {code: -32602, message: `Invalid params for ${message.method}: _meta.progressToken must be a string or a whole number, not ${badToken}`};
      void transport.send({jsonrpc: '2.0', id: message.id, error});
      return;
    }
    if (isJSONRPCRequest(message) && message.method === 'tools/call') {
      const args = (message.params as {arguments?: unknown} | undefined)?.arguments;
      if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) {
        const given = args === null ? 'null' : Array.isArray(args) ? 'a list' : typeof args;
        void transport.send({jsonrpc: '2.0', id: message.id, result: toolError(`The arguments must be an object, not ${given}.`)});
        return;
      }
    }
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
