const pad = (value: number) => String(value).padStart(2, '0');

/**
 * Compact duration for uptimes (`proc list`, the Processes pane): `42s`, `5m`, `3h12m`, `2d03h`.
 * Seconds only in the first minute, as htop and k9s read: after it a running process's uptime
 * moves once a minute, so a screen showing it is not redrawn every second.
 */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h${pad(minutes % 60)}m`;
  return `${Math.floor(hours / 24)}d${pad(hours % 24)}h`;
}
