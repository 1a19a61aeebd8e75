import {ProxyManager} from './manager.js';
import {pageScript} from './page-script.js';
import {createStackMapper} from './sourcemap/stack-mapper.js';
import {targetFetchText} from './sourcemap/target-fetch.js';
import {startProxy} from './start-proxy.js';

/**
 * The daemon's proxies (and `workbench mcp --no-daemon`'s): the engine, with the page script every
 * HTML page gets, and browser stacks mapped through the source maps the target serves.
 */
export function createProxyManager(): ProxyManager {
  let script: string | undefined;
  return new ProxyManager((options) => startProxy(options, {pageScript: (script ??= pageScript()), mapStack: createStackMapper({fetchText: targetFetchText(options.target)})}));
}
