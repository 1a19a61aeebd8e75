import type {ReaderService} from '../../feeds/contracts.js';
import type {ToolContext} from '../../tools/registry-types.js';
import {agentChatOpeners, createChatPort, type ChatOpeners, type ChatPort} from './chat.js';
import {createFeedsPort, FEEDS_POLL_MS, type FeedsPort} from './feeds.js';
import {createGatewayPort, type GatewayPort} from './gateway.js';
import type {GatewayClient} from '../../gateway/client/http-gateway.js';
import {createGraphqlPort, type GqlConnection, type GraphqlPort} from './graphql.js';
import {databaseChatSession} from '../../gql/chat/chat-session.js';
import type {GqlService, GqlSettings} from '../../gql/types.js';
import {createIncidentsPort, type IncidentsPort} from './incidents.js';
import {createProcessesPort, type ProcessesPort} from './processes.js';
import {createProxiesPort, type ProxiesPort} from './proxies.js';
import {createStatusPort, type StatusPort} from './status.js';

/**
 * Everything the TUI reaches outside itself, one port per area. Each is built on the functions
 * the CLI and MCP faces call (tool handlers, the reader service), never a request of its own.
 * Processes and incidents wait for the daemon's pushed events on the one connection the tool
 * context holds; only the reader and the gateway (no events) and the status bar (a slow ping) look on a timer.
 */
export interface TuiPorts {
  processes: ProcessesPort;
  incidents: IncidentsPort;
  feeds: FeedsPort;
  gateway: GatewayPort;
  graphql: GraphqlPort;
  proxies: ProxiesPort;
  chat: ChatPort;
  status: StatusPort;
  close(): Promise<void>;
}

export interface PortOptions {
  /** How soon a port that lost the daemon (or cannot subscribe) tries again (default 500 ms). */
  retryMs?: number;
  /** The status bar's look at the daemon between connection events (default 10 s). */
  statusPollMs?: number;
  /** The Feeds pane's wait between looks (default 5 s). */
  feedsPollMs?: number;
  /** How the reader is opened (default `openReader()`). */
  openReader?: () => Promise<ReaderService>;
  /** How the gateway is found (default `openGateway()`: the running `workbench serve gateway`). */
  openGateway?: () => Promise<GatewayClient>;
  /** How the GraphQL pane reaches the service (default: a running `serve graphql`, else in-process). */
  openGraphql?: () => Promise<GqlConnection>;
  /** The in-process GraphQL service when no server runs (default: the project's settings). */
  openGqlInProcess?: () => Promise<GqlService>;
  /** How the Chat pane opens a conversation: the agent loop or an ACP agent (see chat.ts). */
  chatOpeners?: ChatOpeners;
  /** Starts a stopped daemon again (the `r` of the stopped state); see tuiContext.ts. */
  startDaemon?: () => Promise<void>;
}

/** The ports over a tool context (its cwd is the project). */
export function createPorts(context: ToolContext, options: PortOptions = {}): TuiPorts {
  const retryMs = options.retryMs ?? 500;
  const feeds = createFeedsPort({open: options.openReader, pollMs: options.feedsPollMs});
  const graphql = createGraphqlPort({open: options.openGraphql, openInProcess: options.openGqlInProcess, loadSettings: projectGqlSettings(context.cwd)});
  const openers = options.chatOpeners ?? agentChatOpeners(context.cwd);
  // The Chat pane talks to a database through the GraphQL pane's service (a running server, else in-process).
  const chat = createChatPort({...openers, openDatabase: openers.openDatabase ?? (async (ask) => databaseChatSession(await graphql.chat(), ask))});
  return {
    processes: createProcessesPort(context, {retryMs}),
    incidents: createIncidentsPort(context, {retryMs}),
    feeds,
    // The gateway's poll status changes at its origins' intervals: the reader's pace is plenty.
    gateway: createGatewayPort({open: options.openGateway, pollMs: options.feedsPollMs ?? FEEDS_POLL_MS}),
    graphql,
    proxies: createProxiesPort(context, {retryMs}),
    chat,
    status: createStatusPort(context, {retryMs, pollMs: options.statusPollMs ?? 10_000, startDaemon: options.startDaemon}),
    close: async () => {
      await Promise.all([feeds.close(), graphql.close(), chat.close()]);
    },
  };
}

/** The project's GraphQL settings (appsettings.json in the project), read when the pane first connects. */
function projectGqlSettings(cwd: string): () => Promise<GqlSettings> {
  return async () => (await import('../../gql/settings/load-settings.js')).loadGqlSettings({cwd});
}
