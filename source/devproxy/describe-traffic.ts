import {clip} from '../text/table.js';
import type {TrafficEntry} from './types.js';

const LINE_WIDTH = 300;
const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** `14:03:07.123` in local time: the log spans minutes, not days. */
export function clockTime(epochMs: number): string {
  const date = new Date(epochMs);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** One line per entry, oldest first: what `proxylog` prints. Text from pages and servers is made safe for a terminal. */
export function formatTrafficLine(entry: TrafficEntry): string {
  const time = clockTime(entry.timestamp);
  switch (entry.type) {
    case 'http': {
      const status = entry.status === 0 ? 'ERR' : String(entry.status);
      const tail = entry.status === 0 && entry.error ? ` ${entry.error}` : '';
      return clip(
        `${time} http   ${status} ${entry.method} ${entry.url}  ${Math.round(entry.durationMs)} ms  ${formatBytes(entry.responseBytes)}${entry.injected ? '  +script' : ''}${tail}`,
        LINE_WIDTH,
      );
    }
    case 'error':
      return clip(`${time} error  ${entry.category ? `${entry.category}: ` : ''}${entry.message}  (page ${entry.page})`, LINE_WIDTH);
    case 'custom':
      return clip(`${time} custom [${entry.level}] ${entry.message}  (page ${entry.page})`, LINE_WIDTH);
    case 'diagnostic':
      return clip(`${time} diag   [${entry.level}] ${entry.category}: ${entry.message}${entry.url ? `  (${entry.method ?? ''} ${entry.url})` : ''}`, LINE_WIDTH);
    case 'page':
      return clip(`${time} page   ${entry.event} ${entry.title || '(untitled)'} — ${entry.url}  [${entry.session}]`, LINE_WIDTH);
  }
}

export function formatTraffic(entries: TrafficEntry[]): string {
  return entries.map(formatTrafficLine).join('\n') + (entries.length ? '\n' : '');
}

/** What a long log holds, in a few lines: counts by type and by status, and the time it spans. */
export function summarizeTraffic(entries: TrafficEntry[]): string {
  if (entries.length === 0) return 'no entries';
  const byType = new Map<string, number>();
  const byStatus = new Map<number, number>();
  for (const entry of entries) {
    byType.set(entry.type, (byType.get(entry.type) ?? 0) + 1);
    if (entry.type === 'http') byStatus.set(entry.status, (byStatus.get(entry.status) ?? 0) + 1);
  }
  const types = [...byType].map(([type, count]) => `${type} ${count}`).join(', ');
  const statuses = [...byStatus]
    .sort((a, b) => a[0] - b[0])
    .map(([status, count]) => `${status === 0 ? 'ERR' : status}×${count}`)
    .join(', ');
  const span = `${clockTime(entries[0]!.timestamp)} to ${clockTime(entries.at(-1)!.timestamp)}`;
  return `${entries.length} entries (${types}) from ${span}${statuses ? `; statuses ${statuses}` : ''}`;
}
