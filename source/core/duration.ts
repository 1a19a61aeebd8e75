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

const UNIT_MS: Record<string, number> = {ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000};
// One `<number><unit>` part; sticky so the parts must cover the whole text.
const DURATION_PART = /(\d+(?:\.\d+)?|\.\d+)(ms|s|m|h|d)/y;

/**
 * A written duration in milliseconds: `30s`, `10m`, `2h30m`, `1.5h`, `500ms`, `1d` (units ms, s,
 * m, h, d in any order); undefined when the text is not one.
 */
export function parseDuration(value: string): number | undefined {
  const text = value.trim();
  if (text === '') return undefined;
  let total = 0;
  let at = 0;
  while (at < text.length) {
    DURATION_PART.lastIndex = at;
    const part = DURATION_PART.exec(text);
    if (!part) return undefined;
    total += Number(part[1]) * UNIT_MS[part[2]!]!;
    at = DURATION_PART.lastIndex;
  }
  return Number.isFinite(total) ? total : undefined;
}
