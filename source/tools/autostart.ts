import {resolve} from 'node:path';
import type {DaemonClient} from '../daemon/client.js';
import {loadProjectConfig} from '../project/config.js';

export interface AutostartReport {
  root: string;
  started: string[];
  alreadyRunning: string[];
  /** Proxies marked autostart; the dev proxy starts them once it exists in the daemon. */
  proxies: string[];
}

/**
 * Starts the `autostart true` scripts of the project's .workbench.kdl (MCP initialize, TUI start).
 * A script already running under its name is left alone, so a second client starts nothing twice.
 * A malformed config throws before anything starts.
 */
export async function autostartProject(cwd: string, client: DaemonClient): Promise<AutostartReport> {
  const root = resolve(cwd);
  const config = await loadProjectConfig(root);
  const report: AutostartReport = {root, started: [], alreadyRunning: [], proxies: []};
  if (!config) return report;
  const running = new Set((await client.call('proc.list')).filter((info) => info.status === 'running').map((info) => info.id));
  for (const script of config.scripts) {
    if (!script.autostart) continue;
    if (running.has(script.name)) {
      report.alreadyRunning.push(script.name);
      continue;
    }
    await client.call('proc.start', {cmd: script.run, id: script.name, scriptName: script.name, cwd: root});
    report.started.push(script.name);
  }
  report.proxies = config.proxies.filter((proxy) => proxy.autostart).map((proxy) => proxy.id);
  return report;
}
