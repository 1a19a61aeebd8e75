import {basename} from 'node:path';
import type {ToolContext} from '../../tools/registry-types.js';
import {daemonWatch, eitherWatch} from './daemonWatch.js';
import {pollingWatch, type Watch} from './watch.js';

/** The status bar's port: the daemon's pid (a `ping` over the TUI's one connection), and the project's name. */
export interface StatusPort {
  /** Short text for the status bar: `daemon pid 4242 · demo`. Throws `daemon not connected: ...` without one (`daemon stopped — press r to start` after a stop). */
  describe(): Promise<string>;
  /** When the connection is lost or back, and every `pollMs` (a daemon can hang without closing). */
  watch: Watch;
  /** Starts a stopped daemon again, with the project's autostart scripts; absent where the TUI cannot. */
  startDaemon?: () => Promise<void>;
}

export function createStatusPort(context: ToolContext, options: {retryMs: number; pollMs: number; startDaemon?: () => Promise<void>}): StatusPort {
  return {
    describe: async () => {
      const {pid} = await (await context.daemon()).call('ping');
      return `daemon pid ${pid} · ${basename(context.cwd)}`;
    },
    watch: eitherWatch(
      daemonWatch(() => context.daemon(), {retryMs: options.retryMs}),
      pollingWatch(options.pollMs),
    ),
    startDaemon: options.startDaemon,
  };
}
