import type {DaemonClient} from '../daemon/client.js';
import type {ProxyManager} from '../devproxy/manager.js';
import {describeSurvivors, ensureDaemon} from '../daemon/lifecycle.js';
import {WorkbenchError} from '../core/errors.js';
import {currentFolder, projectRoot} from '../project/project-root.js';
import type {ToolContext} from './registry-types.js';

export interface ToolContextOptions {
  cwd?: string;
  /** Legacy mode: the proxies this process owns (`workbench mcp --no-daemon`). */
  localProxies?: ProxyManager;
  /** Legacy mode: no daemon is started or asked, whatever the tool. */
  noDaemon?: boolean;
  budget?: number;
  /** `lost`: the message tells that earlier processes, output or alerts are gone (worth telling an agent). */
  notice?: (message: string, lost?: boolean) => void;
  /**
   * Called after each connection is made, before the tool that needed it goes on. `reconnected`:
   * an earlier connection of this context was lost, so the daemon (and its processes) may be new.
   */
  onConnect?: (client: DaemonClient, how: {started: boolean; recovered: boolean; reconnected: boolean}) => Promise<void>;
}

/**
 * A tool context whose daemon connection is made once, on first need, and reported through
 * `notice` when the daemon had to be (re)started.
 */
export function createToolContext(options: ToolContextOptions = {}): ToolContext & {close(): void} {
  let connection: Promise<DaemonClient> | undefined;
  let connections = 0;
  const cwd = options.cwd ?? currentFolder();
  return {
    cwd,
    noDaemon: options.noDaemon ?? false,
    localProxies: options.localProxies,
    budget: options.budget,
    daemon() {
      if (options.noDaemon)
        return Promise.reject(
          new WorkbenchError('daemon_not_connected', 'daemon not connected: this needs the workbench daemon, which --no-daemon turns off (legacy mode has proxy errors only)'),
        );
      connection ??= ensureDaemon().then(async ({client, started, recovered, survivors}) => {
        // A tool works on the processes of its context's project (an MCP server's, a command's folder).
        client.project = projectRoot(cwd);
        const reconnected = connections > 0;
        connections += 1;
        // Output and alerts lived in the dead daemon; a process that outlived it is named, by pid.
        const left = survivors.length ? `; still running from before, no longer supervised: ${describeSurvivors(survivors)} (stop with kill <pid>)` : '';
        if (recovered)
          options.notice?.(
            `workbench: the daemon was not running (it had died); started a new one — earlier ${survivors.length ? 'output and alerts are' : 'processes and alerts are'} gone${left}`,
            true,
          );
        else if (started && reconnected) options.notice?.(`workbench: the daemon had stopped; started a new one — earlier processes, output and alerts are gone${left}`, true);
        else if (started) options.notice?.(`workbench: started the daemon${left}`);
        client.closedPromise().then(() => (connection = undefined));
        await options.onConnect?.(client, {started, recovered, reconnected});
        return client;
      });
      connection.catch(() => (connection = undefined));
      return connection;
    },
    close() {
      void connection?.then((client) => client.close()).catch(() => undefined);
    },
  };
}
