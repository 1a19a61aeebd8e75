import {ProxyManager} from './manager.js';
import {pageScript} from './page-script.js';
import {startProxy} from './start-proxy.js';

/** The daemon's proxies (and `workbench mcp --no-daemon`'s): the engine, with the page script every HTML page gets. */
export function createProxyManager(): ProxyManager {
  let script: string | undefined;
  return new ProxyManager((options) => startProxy(options, {pageScript: (script ??= pageScript())}));
}
