import {existsSync} from 'node:fs';
import {formatDuration} from '../core/duration.js';
import {toTerminalLine} from '../text/terminal-safe.js';
import type {ProcessInfo} from './types.js';

function projectLabel(project: string): string {
  if (!project) return '-';
  return existsSync(project) ? project : `${project} (folder gone)`;
}

/** `running`, `exited 0`, `exited 127`, `crashed (SIGSEGV)`, `stopped`. */
export function describeStatus(info: ProcessInfo): string {
  switch (info.status) {
    case 'exited':
      return `exited ${info.exitCode ?? ''}`.trim();
    case 'crashed':
      return `crashed (${info.signal ?? 'signal'})`;
    default:
      return info.status;
  }
}

export function uptime(info: ProcessInfo, now = Date.now()): number {
  return (info.endedAt ?? now) - info.startedAt;
}

/**
 * The table `proc list` prints. `projects`: a listing across projects (`proc list --all`), with a
 * PROJECT column; a project whose folder is gone says so (its processes can still be stopped, by
 * `<project>#<id>`).
 */
export function formatProcessTable(processes: ProcessInfo[], now = Date.now(), options: {projects?: boolean} = {}): string {
  if (processes.length === 0) return 'No processes. Start one with `workbench run <script>` or `workbench run --cmd "<command>"`.\n';
  // A command line (and an id given over the socket) may hold anything: one safe line each.
  const rows = processes.map((info) =>
    [
      ...(options.projects ? [projectLabel(info.project)] : []),
      info.id,
      describeStatus(info),
      info.pid ? String(info.pid) : '-',
      formatDuration(uptime(info, now)),
      String(info.alertCount),
      info.command,
    ].map(toTerminalLine),
  );
  const header = [...(options.projects ? ['PROJECT'] : []), 'ID', 'STATUS', 'PID', 'UPTIME', 'ALERTS', 'COMMAND'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) => cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]))).join('  ');
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}
