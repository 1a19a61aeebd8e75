import {basename} from 'node:path';
import type {ToolContext} from '../../tools/registry-types.js';
import {daemonWatch, eitherWatch} from './daemonWatch.js';
import {pollingWatch, type Watch} from './watch.js';

/** The status bar's port: the daemon's pid (a `ping` over the TUI's one connection), and the project's name. */
export interface StatusPort {
  /** Short text for the status bar: `daemon pid 4242 · demo`. Throws `daemon not connected: ...` without one. */
  describe(): Promise<string>;
  /** When the connection is lost or back, and every `pollMs` (a daemon can hang without closing). */
  watch: Watch;
}

export function createStatusPort(context: ToolContext, options: {retryMs: number; pollMs: number}): StatusPort {
  return {
    describe: async () => {
      const {pid} = await (await context.daemon()).call('ping');
      return `daemon pid ${pid} · ${basename(context.cwd)}`;
    },
    watch: eitherWatch(
      daemonWatch(() => context.daemon(), {retryMs: options.retryMs}),
      pollingWatch(options.pollMs),
    ),
  };
}
