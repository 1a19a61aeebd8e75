import {WorkbenchError} from '../core/errors.js';
import type {ParamsIn, Result} from '../daemon/protocol/index.js';
import type {ProxyRecords} from '../incidents/types.js';
import type {ToolContext} from './registry-types.js';

/**
 * The proxies a tool reaches: the daemon's (by default) or, in legacy mode, the ones this process
 * owns (`workbench mcp --no-daemon`). Both sides run the same ProxyManager methods, so a tool
 * answers the same whichever owns them.
 */
export interface ProxyAccess {
  start(params: ParamsIn<'proxy.start'>): Promise<Result<'proxy.start'>>;
  stop(id: string): Promise<Result<'proxy.stop'>>;
  list(): Promise<Result<'proxy.list'>>;
  exec(params: ParamsIn<'proxy.exec'>): Promise<Result<'proxy.exec'>>;
  log(params: ParamsIn<'proxy.log'>): Promise<Result<'proxy.log'>>;
  pages(id?: string): Promise<Result<'proxy.pages'>>;
}

export function proxyAccess(context: ToolContext): ProxyAccess {
  if (context.noDaemon) {
    const manager = context.localProxies;
    if (!manager)
      throw new WorkbenchError(
        'daemon_not_connected',
        'daemon not connected: proxies live in the workbench daemon, which --no-daemon turns off (in legacy mode only `workbench mcp --no-daemon` holds proxies, for its session)',
      );
    return {
      start: (params) => manager.start(params),
      stop: (id) => manager.stop(id),
      list: async () => manager.list(),
      exec: (params) => manager.exec(params),
      log: async (params) => manager.log(params),
      pages: async (id) => manager.pages(id),
    };
  }
  const daemon = () => context.daemon();
  return {
    start: async (params) => (await daemon()).call('proxy.start', params),
    stop: async (id) => (await daemon()).call('proxy.stop', {id}),
    list: async () => (await daemon()).call('proxy.list'),
    exec: async (params) => (await daemon()).call('proxy.exec', params),
    log: async (params) => (await daemon()).call('proxy.log', params),
    pages: async (id) => (await daemon()).call('proxy.pages', {id}),
  };
}

/** What the inbox reads without a daemon: the proxies this process owns, if any. */
export function localProxyRecords(context: ToolContext): ProxyRecords[] {
  return context.localProxies?.records() ?? [];
}
