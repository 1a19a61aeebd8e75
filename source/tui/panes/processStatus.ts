import type {ProcessInfo} from '../../processes/types.js';
import {formatDuration} from '../../core/duration.js';

export interface StatusLabel {
  text: string;
  color?: string;
  dim?: boolean;
}

/** How a process's state reads in the list: running green, crashed red, exited with its code. */
export function statusLabel(process: ProcessInfo): StatusLabel {
  switch (process.status) {
    case 'running':
      return {text: 'running', color: 'green'};
    case 'starting':
      return {text: 'starting', color: 'yellow'};
    case 'crashed':
      return {text: 'crashed', color: 'red'};
    case 'stopped':
      return {text: 'stopped', dim: true};
    case 'exited': {
      const how = process.exitCode === null || process.exitCode === undefined ? (process.signal ?? '?') : String(process.exitCode);
      return {text: `exited ${how}`, color: process.exitCode === 0 ? undefined : 'yellow'};
    }
  }
}

/** Uptime of a live process, or how long it ran before it ended. */
export function processUptime(process: ProcessInfo, now: number): string {
  const end = process.status === 'running' || process.status === 'starting' ? now : (process.endedAt ?? now);
  return formatDuration(end - process.startedAt);
}
