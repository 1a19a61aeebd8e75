import {McpServer} from '@modelcontextprotocol/sdk/server/mcp.js';
import {StdioServerTransport} from '@modelcontextprotocol/sdk/server/stdio.js';
import type {Transport} from '@modelcontextprotocol/sdk/shared/transport.js';
import {describeError, isWorkbenchError} from '../core/errors.js';
import {autostartProject} from '../tools/autostart.js';
import {createToolContext} from '../tools/context.js';
import {tools} from '../tools/registry.js';
import type {ToolContext, ToolDefinition} from '../tools/registry-types.js';
import {LineGuard, MAX_MESSAGE_BYTES, requestIdOf} from './line-guard.js';
import {VERSION} from '../core/version.js';

function log(message: string): void {
  // stdout belongs to the protocol.
  process.stderr.write(`workbench mcp: ${message}\n`);
}

type ToolAnswer = {content: {type: 'text'; text: string}[]; isError?: boolean};

/** Runs one tool for MCP: compact text, raw JSON, or a tool error; never a crash. */
export async function callTool(tool: ToolDefinition, args: Record<string, unknown>, context: ToolContext): Promise<ToolAnswer> {
  try {
    const result = await tool.handler(args as never, context);
    const text = args.raw === true ? JSON.stringify(result, null, 2) : tool.compact(result, args as never);
    return {content: [{type: 'text', text}]};
  } catch (error) {
    if (!isWorkbenchError(error)) log(`${tool.name} failed: ${(error as Error)?.stack ?? error}`);
    // get_errors answers errors as an object with one field `error` (spec 1); so do all tools.
    return {content: [{type: 'text', text: JSON.stringify({error: describeError(error)})}], isError: true};
  }
}

export function createMcpServer(options: {cwd?: string; noDaemon?: boolean; autostart?: boolean} = {}): {server: McpServer; close(): void} {
  const context = createToolContext({cwd: options.cwd, noDaemon: options.noDaemon, notice: log});
  const server = new McpServer({name: 'workbench', version: VERSION});
  for (const tool of tools) {
    server.registerTool(tool.name, {description: tool.description, inputSchema: tool.input}, ((args: Record<string, unknown>) => callTool(tool, args ?? {}, context)) as never);
  }
  if (options.autostart !== false && !options.noDaemon) {
    server.server.oninitialized = () => {
      context
        .daemon()
        .then((client) => autostartProject(context.cwd, client))
        .then((report) => {
          if (report.started.length) log(`autostarted ${report.started.join(', ')}`);
          if (report.proxies.length) log(`proxies marked autostart (${report.proxies.join(', ')}) need the dev proxy, which this build does not have yet`);
        })
        .catch((error) => log(`autostart failed: ${describeError(error)}`));
    };
  }
  return {server, close: () => context.close()};
}

/** `workbench mcp`: an MCP server on stdio. */
export async function runMcpServer(options: {cwd?: string; noDaemon?: boolean; transport?: Transport} = {}): Promise<void> {
  const {server, close} = createMcpServer(options);
  let transport: Transport;
  if (options.transport) transport = options.transport;
  else {
    // An oversized message is answered and skipped here instead of closing the SDK's transport.
    const guard = new LineGuard((head, bytes) => {
      const id = requestIdOf(head);
      log(`dropped a message of ${bytes} bytes: over the ${MAX_MESSAGE_BYTES / 1024 / 1024} MiB limit${id === undefined ? '' : ` (request id ${JSON.stringify(id)})`}`);
      if (id !== undefined) void transport.send({jsonrpc: '2.0', id, error: {code: -32600, message: `message too large: ${bytes} bytes, the limit is ${MAX_MESSAGE_BYTES} bytes`}});
    });
    process.stdin.pipe(guard);
    transport = new StdioServerTransport(guard, process.stdout, {maxBufferSize: MAX_MESSAGE_BYTES + 1});
  }
  const done = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  process.stdin.on('end', () => void server.close());
  await done;
  close();
}
