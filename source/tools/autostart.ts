import {resolve} from 'node:path';
import {describeError} from '../core/errors.js';
import type {DaemonClient} from '../daemon/client.js';
import type {ProxyInfo} from '../devproxy/types.js';
import {loadProjectConfig, type ProjectConfig} from '../project/config.js';
import type {ProxyAccess} from './proxy-access.js';

export interface AutostartReport {
  root: string;
  /** Scripts started now. */
  started: string[];
  /** Scripts and proxies already running under their name. */
  alreadyRunning: string[];
  /** Proxies started now, with the address to open. */
  proxies: ProxyInfo[];
  /** `proxy <id>: <why>` for each proxy that would not start; the others still start. */
  failed: string[];
}

/**
 * Starts the `autostart true` scripts and proxies of the project's .workbench.kdl in the daemon
 * (MCP initialize, TUI start). Whatever already runs under its name is left alone, so a second
 * client starts nothing twice. A malformed config throws before anything starts.
 */
export async function autostartProject(cwd: string, client: DaemonClient): Promise<AutostartReport> {
  const root = resolve(cwd);
  const config = await loadProjectConfig(root);
  const report = emptyReport(root);
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
  await startProxies(config, daemonProxies(client), report);
  return report;
}

/** Legacy mode (`workbench mcp --no-daemon`): the config's autostart proxies, owned by this process; scripts need the daemon. */
export async function autostartLocalProxies(cwd: string, access: ProxyAccess): Promise<AutostartReport> {
  const root = resolve(cwd);
  const config = await loadProjectConfig(root);
  const report = emptyReport(root);
  if (config) await startProxies(config, access, report);
  return report;
}

/** What an autostart did, for the notes of a tool answer or a log line. */
export function describeAutostart(report: AutostartReport, again = false): string[] {
  const lines: string[] = [];
  if (report.started.length) lines.push(`autostarted ${again ? 'again ' : ''}${report.started.join(', ')} (.workbench.kdl)`);
  for (const proxy of report.proxies) lines.push(`autostarted proxy ${proxy.id}: open ${proxy.url} (forwards to ${proxy.target})`);
  for (const failure of report.failed) lines.push(`autostart failed: ${failure}`);
  return lines;
}

async function startProxies(config: ProjectConfig, access: Pick<ProxyAccess, 'list' | 'start'>, report: AutostartReport): Promise<void> {
  const wanted = config.proxies.filter((proxy) => proxy.autostart);
  if (wanted.length === 0) return;
  const running = new Set((await access.list()).map((info) => info.id));
  for (const proxy of wanted) {
    if (running.has(proxy.id)) {
      report.alreadyRunning.push(proxy.id);
      continue;
    }
    // A target that is down still gets its proxy: it answers 502 until the dev server is up.
    try {
      report.proxies.push(await access.start({id: proxy.id, target: proxy.target}));
    } catch (error) {
      report.failed.push(`proxy ${proxy.id}: ${describeError(error)}`);
    }
  }
}

function daemonProxies(client: DaemonClient): Pick<ProxyAccess, 'list' | 'start'> {
  return {list: () => client.call('proxy.list'), start: (params) => client.call('proxy.start', params)};
}

function emptyReport(root: string): AutostartReport {
  return {root, started: [], alreadyRunning: [], proxies: [], failed: []};
}
