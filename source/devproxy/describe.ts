import {formatDuration} from '../core/duration.js';
import {toTerminalLine} from '../text/terminal-safe.js';
import {formatTable} from '../text/table.js';
import {plural} from '../text/plural.js';
import type {ExecResult, PageSession, ProxyInfo} from './types.js';

/** The table `proxy list` prints (and the proxy tool's list answer). */
export function formatProxyTable(proxies: ProxyInfo[], now = Date.now()): string {
  if (proxies.length === 0) return 'No proxy is running. Start one with `workbench proxy start <id> --target http://127.0.0.1:3000`.\n';
  return formatTable(
    ['ID', 'URL', 'TARGET', 'UPTIME', 'REQUESTS', 'ERRORS', 'PAGES'],
    proxies.map((info) => [info.id, info.url, info.target, formatDuration(now - info.startedAt), String(info.requests), String(info.errors), String(info.pages)]),
  );
}

/** `app: http://127.0.0.1:41234 → http://127.0.0.1:3000` */
export function describeProxy(info: ProxyInfo): string {
  return toTerminalLine(`${info.id}: ${info.url} → ${info.target}`);
}

export function formatProxyStatus(info: ProxyInfo, now = Date.now()): string {
  return [
    describeProxy(info),
    `up ${formatDuration(now - info.startedAt)}; ${plural(info.requests, 'request')}, ${plural(info.errors, 'error')}; ${plural(info.pages, 'page')} connected; log keeps ${info.logSize} entries`,
  ].join('\n');
}

/** One block per page that ran the code: where, then the JSON value or the error. */
export function formatExecResults(results: ExecResult[]): string {
  return results
    .map((result) => {
      const head = toTerminalLine(`[${result.session}] ${result.url}`);
      return result.ok ? `${head}\n${toTerminalLine(jsonText(result.value))}` : `${head}\nerror: ${toTerminalLine(result.error)}`;
    })
    .join('\n\n');
}

export function jsonText(value: unknown): string {
  if (value === undefined) return 'undefined';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** currentpage: each page of each proxy, with what went wrong since it loaded. */
export function formatPageSessions(groups: Array<{proxy: string; url: string; pages: PageSession[]}>, now = Date.now()): string {
  if (groups.length === 0) return 'No proxy is running, so no page is tracked.\n';
  const lines: string[] = [];
  for (const group of groups) {
    lines.push(toTerminalLine(`=== ${group.proxy} (${group.url}): ${plural(group.pages.length, 'page')} ===`));
    if (group.pages.length === 0) lines.push(`no page has connected yet: open ${group.url} in a browser`);
    for (const page of group.pages) {
      lines.push(
        '',
        toTerminalLine(`${page.title || '(untitled)'} — ${page.url}`),
        `session ${toTerminalLine(page.session)} · ${page.connected ? 'connected' : 'gone'} · loaded ${formatDuration(now - page.loadedAt)} ago · ${plural(page.errors, 'error')}, ${plural(page.failedRequests, 'failed request')} since load` +
          (page.lastInteraction ? ` · last interaction ${formatDuration(now - page.lastInteraction)} ago` : ''),
      );
    }
    lines.push('');
  }
  return lines.join('\n');
}
