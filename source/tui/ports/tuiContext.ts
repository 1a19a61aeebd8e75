import {WorkbenchError} from '../../core/errors.js';
import type {DaemonClient} from '../../daemon/client.js';
import {describeSurvivors, ensureDaemon, type DaemonConnection} from '../../daemon/lifecycle.js';
import {UntrustedSocketError} from '../../daemon/socket-guard.js';
import {projectRoot} from '../../project/project-root.js';
import type {ToolContext} from '../../tools/registry-types.js';

/** What every pane and the status bar say while the daemon is stopped: `r` starts it (components/DaemonStartKey). */
export const DAEMON_STOPPED = 'daemon stopped — press r to start';

export interface TuiContext extends ToolContext {
  /** Starts the daemon again after `workbench daemon stop` (the `r` key of the stopped state). */
  startDaemon(): Promise<DaemonClient>;
  close(): void;
}

export interface TuiContextOptions {
  cwd: string;
  notice?: (message: string) => void;
  /** Connects, starting the daemon when `autostart` (default ensureDaemon; tests give an in-process one). */
  ensure?: (options: {autostart: boolean}) => Promise<DaemonConnection>;
  /** After `startDaemon()` brought a daemon up: the project's autostart scripts, the reader. */
  afterStart?: (client: DaemonClient) => Promise<void>;
}

/**
 * The TUI's tool context. Unlike the CLI's, it starts the daemon only for its first connection:
 * once the TUI runs, `workbench daemon stop` from another terminal leaves the daemon stopped (the
 * ports keep trying to connect, never to spawn), and the panes say so until the user presses `r`.
 */
export function createTuiContext(options: TuiContextOptions): TuiContext {
  const ensure = options.ensure ?? ((ensureOptions) => ensureDaemon(ensureOptions));
  let connection: Promise<DaemonClient> | undefined;
  let connectedOnce = false;

  const adopt = (connecting: Promise<DaemonConnection>): Promise<DaemonClient> => {
    const made = connecting.then(({client, started, recovered, survivors}) => {
      connectedOnce = true;
      // The TUI's processes are those of the project it was opened in.
      client.project = projectRoot(options.cwd);
      const left = survivors.length ? `; still running from before, no longer supervised: ${describeSurvivors(survivors)} (stop with kill <pid>)` : '';
      if (recovered) options.notice?.(`workbench: the daemon was not running (it had died); started a new one — earlier processes and alerts are gone${left}`);
      else if (started) options.notice?.(`workbench: started the daemon${left}`);
      client.closedPromise().then(() => {
        if (connection === made) connection = undefined;
      });
      return client;
    });
    connection = made;
    made.catch(() => {
      if (connection === made) connection = undefined;
    });
    return made;
  };

  return {
    cwd: options.cwd,
    noDaemon: false,
    daemon() {
      if (connection) return connection;
      const autostart = !connectedOnce;
      return adopt(
        ensure({autostart}).catch((error: unknown) => {
          if (autostart || error instanceof UntrustedSocketError) throw error;
          throw new WorkbenchError('daemon_not_connected', DAEMON_STOPPED);
        }),
      );
    },
    async startDaemon() {
      const client = await adopt(ensure({autostart: true}));
      await options.afterStart?.(client);
      return client;
    },
    close() {
      void connection?.then((client) => client.close()).catch(() => undefined);
    },
  };
}
