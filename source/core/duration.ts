const pad = (value: number) => String(value).padStart(2, '0');

/** Compact duration for uptimes (`proc list`, the Processes pane): `42s`, `5m03s`, `3h12m`, `2d03h`. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${pad(seconds % 60)}s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h${pad(minutes % 60)}m`;
  return `${Math.floor(hours / 24)}d${pad(hours % 24)}h`;
}
