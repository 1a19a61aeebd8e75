import {Server} from '@modelcontextprotocol/sdk/server/index.js';
import {StdioServerTransport} from '@modelcontextprotocol/sdk/server/stdio.js';
import type {Transport} from '@modelcontextprotocol/sdk/shared/transport.js';
import {CallToolRequestSchema, ListToolsRequestSchema} from '@modelcontextprotocol/sdk/types.js';
import {describeError, isWorkbenchError} from '../core/errors.js';
import {VERSION} from '../core/version.js';
import {createProxyManager} from '../devproxy/create-manager.js';
import {autostartLocalProxies, autostartProject, describeAutostart} from '../tools/autostart.js';
import {ANSWER_BUDGET} from '../tools/budget.js';
import {createToolContext} from '../tools/context.js';
import {proxyAccess} from '../tools/proxy-access.js';
import {findTool, tools} from '../tools/registry.js';
import type {ToolContext} from '../tools/registry-types.js';
import {guardRequestParams} from './params-guard.js';
import {callContext} from './call-context.js';
import {fitAnswer, toolError, type ToolAnswer} from './answer.js';
import {LineGuard, MAX_MESSAGE_BYTES, requestIdOf} from './line-guard.js';
import {attachLiveFeatures, LIVE_CAPABILITIES} from './live-features.js';
import {listTools} from './tool-list.js';

function log(message: string): void {
  // stdout belongs to the protocol.
  process.stderr.write(`workbench mcp: ${message}\n`);
}

/** What the server tells a client about using it (MCP `instructions`). */
export const INSTRUCTIONS = [
  'workbench supervises the dev servers and commands of the project in this directory and collects their errors in one inbox.',
  'Workflow: detect (script names) → run a script or command (background; foreground for builds and tests) → proc output / proc list to watch it → get_incidents {"unread": true, "mark_read": true} to see only new problems, {"id"} for one whole → fix → proc restart.',
  'get_errors is the exact, filtered snapshot (process_id, since, limit). Scripts and proxies marked autostart in .workbench.kdl are already started.',
  'Browser: proxy start puts a dev proxy in front of a dev server; pages opened through it report errors to get_errors, traffic to proxylog and sessions to currentpage; proxy exec runs code in the page.',
  'Live: subscribe to workbench://incidents (and workbench://processes/<id>/output) for notifications/resources/updated instead of polling; the prompts fix-latest-incident and why-did-script-stop bring an incident or a process as context; logging/setLevel picks which daemon warnings (crashes, proxies that cannot reach their target) come as log messages.',
  `Answers are compact text (structuredContent holds the JSON) and stay under ${ANSWER_BUDGET.toLocaleString('en')} characters; a cut answer says how to get the rest. Errors come back as {"error": "..."} with isError.`,
].join('\n');

/** Runs one tool for MCP: compact text (or raw JSON) and structured content within the budget, or a tool error; never a crash. */
export async function callTool(name: string, args: unknown, context: ToolContext): Promise<ToolAnswer> {
  const tool = findTool(name);
  if (!tool) return toolError(`unknown tool "${name}": the tools are ${tools.map((known) => known.name).join(', ')}`);
  try {
    return fitAnswer(tool, await tool.call(args ?? {}, context), context.budget ?? ANSWER_BUDGET);
  } catch (error) {
    if (!isWorkbenchError(error)) log(`${tool.name} failed: ${(error as Error)?.stack ?? error}`);
    return toolError(describeError(error));
  }
}

export function createMcpServer(options: {cwd?: string; noDaemon?: boolean; autostart?: boolean} = {}): {server: Server; close(): Promise<void>} {
  const autostart = options.autostart !== false;
  // Legacy mode: no daemon to own proxies, so this server owns them for its session (spec 1: proxy errors only).
  const localProxies = options.noDaemon ? createProxyManager() : undefined;
  // What the next tool answer tells besides its own result: autostart, a daemon that was lost.
  const notes: string[] = [];
  const note = (message: string) => {
    log(message);
    notes.push(message.replace(/^workbench: /, ''));
  };
  const context = createToolContext({
    cwd: options.cwd,
    noDaemon: options.noDaemon,
    localProxies,
    budget: ANSWER_BUDGET,
    notice: (message, lost) => (lost ? note(message) : log(message)),
    // A new daemon has none of the processes: the project's autostart scripts come back.
    onConnect: async (client, {started, recovered, reconnected}) => {
      await live.connected(client);
      if (!autostart || !reconnected || !(started || recovered)) return;
      try {
        for (const line of describeAutostart(await autostartProject(context.cwd, client), true)) note(line);
      } catch (error) {
        note(`autostart failed: ${describeError(error)}`);
      }
    },
  });
  // Autostart runs from `initialized`; tool calls wait for it, so none races it and its report
  // (or its failure) reaches the first answer.
  let ready: Promise<void> = Promise.resolve();
  const server = new Server(
    {name: 'workbench', title: 'workbench', version: VERSION},
    {
      capabilities: {tools: {listChanged: false}, ...LIVE_CAPABILITIES},
      instructions: INSTRUCTIONS,
    },
  );
  // Resources, subscriptions, logging, prompts and completions: this server's own, released by close().
  const live = attachLiveFeatures(server, context);
  server.setRequestHandler(ListToolsRequestSchema, () => ({tools: listTools()}));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    await ready;
    // The tool hears this request's cancellation and reports progress under its token.
    const call = callContext(extra);
    const answer = await callTool(request.params.name, request.params.arguments, {...context, call}).finally(() => call.close());
    if (notes.length)
      answer.content.push({
        type: 'text',
        text: notes
          .splice(0)
          .map((line) => `[workbench] ${line}`)
          .join('\n'),
      });
    return answer;
  });
  if (autostart) {
    server.oninitialized = () => {
      const started = localProxies ? autostartLocalProxies(context.cwd, proxyAccess(context)) : context.daemon().then((client) => autostartProject(context.cwd, client));
      ready = started.then((report) => describeAutostart(report).forEach(note)).catch((error) => note(`autostart failed: ${describeError(error)}`));
    };
  }
  return {
    server,
    async close() {
      // A session that ends at once still gets its autostart scripts started, then lets go.
      await ready;
      await live.close();
      await localProxies?.stopAll();
      context.close();
    },
  };
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
  guardRequestParams(transport);
  process.stdin.on('end', () => void server.close());
  await done;
  await close();
}
