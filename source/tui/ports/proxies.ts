import type {ExecResult, PageSession, ProxyInfo, TrafficEntry, TrafficQuery} from '../../devproxy/types.js';
import {loadProjectConfig} from '../../project/config.js';
import {currentpageTask} from '../../tools/currentpage.js';
import {proxyTask} from '../../tools/proxy.js';
import {proxyAccess} from '../../tools/proxy-access.js';
import type {ToolContext} from '../../tools/registry-types.js';
import {daemonWatch} from './daemonWatch.js';
import type {Unwatch, Watch} from './watch.js';

/** A proxy of the project's .workbench.kdl, as the `s` picker offers it. */
export interface ProxyChoice {
  id: string;
  target: string;
  autostart: boolean;
}

/**
 * The Proxy pane's port: the `proxy` and `currentpage` tool handlers, as `workbench proxy ...`,
 * `workbench currentpage` and the MCP tools call them, the traffic log through the same access
 * as `proxylog`, and the daemon's `proxies` and `traffic` events. (The project's `autostart true`
 * proxies start with the TUI in tools/autostart.ts, with its scripts.)
 */
export interface ProxiesPort {
  list(): Promise<ProxyInfo[]>;
  /** Calls `onChange` when the proxy list may have changed: the daemon's `proxies` events. */
  watch: Watch;
  /** A proxy's traffic log, oldest first: the newest `limit` entries after `afterSeq`. */
  traffic(id: string, query: Pick<TrafficQuery, 'afterSeq' | 'limit'>): Promise<TrafficEntry[]>;
  /** Calls `onChange` when the proxy logged something: the daemon's `traffic` events for it. */
  watchTraffic(id: string, onChange: () => void): Unwatch;
  /** The browser tabs connected to a proxy (currentpage). */
  pages(id: string): Promise<PageSession[]>;
  /** Runs code in the proxy's connected pages; rejects (`no page connected`) when there is none. */
  exec(id: string, code: string): Promise<ExecResult[]>;
  /** The proxies the project's .workbench.kdl declares. */
  configured(): Promise<ProxyChoice[]>;
  start(choice: Pick<ProxyChoice, 'id' | 'target'>): Promise<ProxyInfo>;
  stop(id: string): Promise<ProxyInfo>;
}

export function createProxiesPort(context: ToolContext, options: {retryMs: number}): ProxiesPort {
  const daemon = () => context.daemon();
  const proxyOf = (result: Awaited<ReturnType<typeof proxyTask>>): ProxyInfo => {
    if (!('proxy' in result)) throw new Error(`proxy ${result.action} answered without a proxy`);
    return result.proxy;
  };
  return {
    list: async () => {
      const result = await proxyTask({action: 'list'}, context);
      return result.action === 'list' ? result.proxies : [];
    },
    watch: daemonWatch(daemon, {topic: 'proxies', retryMs: options.retryMs}),
    // The log as is, from the seq the pane holds: proxylog's answer is for agents, cut to a budget and without afterSeq.
    traffic: (id, query) => proxyAccess(context).log({id, ...query}),
    watchTraffic: (id, onChange) => daemonWatch(daemon, {topic: 'traffic', accept: (event) => event.proxyId === id, retryMs: options.retryMs})(onChange),
    pages: async (id) => (await currentpageTask({proxy_id: id}, context)).proxies.flatMap((proxy) => proxy.pages),
    exec: async (id, code) => {
      const result = await proxyTask({action: 'exec', id, code}, context);
      return result.action === 'exec' ? result.results : [];
    },
    configured: async () => ((await loadProjectConfig(context.cwd))?.proxies ?? []).map(({id, target, autostart}) => ({id, target, autostart})),
    start: async (choice) => proxyOf(await proxyTask({action: 'start', id: choice.id, target: choice.target}, context)),
    stop: async (id) => proxyOf(await proxyTask({action: 'stop', id}, context)),
  };
}
