import type {DaemonClient} from '../daemon/client.js';
import {describeSurvivors, ensureDaemon} from '../daemon/lifecycle.js';
import type {ToolContext} from './registry-types.js';

/**
 * A tool context whose daemon connection is made once, on first need, and reported through
 * `notice` when the daemon had to be (re)started.
 */
export function createToolContext(options: {cwd?: string; noDaemon?: boolean; notice?: (message: string) => void} = {}): ToolContext & {close(): void} {
  let connection: Promise<DaemonClient> | undefined;
  return {
    cwd: options.cwd ?? process.cwd(),
    noDaemon: options.noDaemon ?? false,
    daemon() {
      connection ??= ensureDaemon().then(({client, started, recovered, survivors}) => {
        // Output and alerts lived in the dead daemon; a process that outlived it is named, by pid.
        const left = survivors.length ? `; still running from before, no longer supervised: ${describeSurvivors(survivors)} (stop with kill <pid>)` : '';
        if (recovered)
          options.notice?.(
            `workbench: the daemon was not running (it had died); started a new one — earlier ${survivors.length ? 'output and alerts are' : 'processes and alerts are'} gone${left}`,
          );
        else if (started) options.notice?.(`workbench: started the daemon${left}`);
        client.closedPromise().then(() => (connection = undefined));
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
