import type {Server} from '@modelcontextprotocol/sdk/server/index.js';
import type {DaemonClient} from '../daemon/client.js';
import type {ToolContext} from '../tools/registry-types.js';
import {registerCompletions} from './completions.js';
import {DaemonFeed} from './live/feed.js';
import {McpLogging} from './logging.js';
import {promptArguments, registerPrompts} from './prompts/register.js';
import {registerResources} from './resources/register.js';
import {ResourceSubscriptions} from './resources/subscriptions.js';

/** The capabilities the live features add to `tools` (declared before their handlers are set). */
export const LIVE_CAPABILITIES = {
  resources: {subscribe: true, listChanged: true},
  logging: {},
  prompts: {listChanged: false},
  completions: {},
} as const;

export interface LiveFeatures {
  /** The tool context's connection was made: follow its events. */
  connected(client: DaemonClient): Promise<void>;
  /** Ends the subscriptions and releases the daemon's listeners; the connection stays the context's. */
  close(): Promise<void>;
}

/**
 * Resources with subscriptions, logging, prompts and completions on one server: all state is
 * this server's (one client, whatever the transport), fed by the daemon connection its tools use.
 */
export function attachLiveFeatures(server: Server, context: ToolContext): LiveFeatures {
  const feed = new DaemonFeed();
  const subscriptions = new ResourceSubscriptions(server, context, feed);
  const logging = new McpLogging(server, feed);
  registerResources(server, context, subscriptions);
  registerPrompts(server, context);
  registerCompletions(server, context, promptArguments);
  return {
    connected: (client) => feed.attach(client),
    async close() {
      subscriptions.close();
      logging.close();
      await feed.close();
    },
  };
}
