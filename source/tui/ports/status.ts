import {basename} from 'node:path';
import {WorkbenchError} from '../../core/errors.js';
import {daemonStatus} from '../../daemon/lifecycle.js';
import {pollingWatch, type Watch} from './watch.js';

/** The status bar's port: what `workbench daemon status` reports, and the project's name. */
export interface StatusPort {
  /** Short text for the status bar: `daemon pid 4242 · demo`. */
  describe(): Promise<string>;
  watch: Watch;
}

export function createStatusPort(root: string, options: {pollMs: number}): StatusPort {
  return {
    describe: async () => {
      const status = await daemonStatus();
      if (!status.running) throw new WorkbenchError('daemon_not_connected', `daemon not connected: not running (home ${status.home})`);
      return `daemon pid ${status.pid} · ${basename(root)}`;
    },
    watch: pollingWatch(options.pollMs),
  };
}
