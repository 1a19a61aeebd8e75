/** How long ago, in the largest whole unit: `5s`, `3m`, `2h`, `4d` (for `(<count>x, <age> ago)`). */
export function formatAge(ms: number): string {
  // A stamp slightly in the future (clock skew) reads as just now.
  const seconds = Number.isFinite(ms) ? Math.max(0, Math.floor(ms / 1000)) : 0;
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h`;
  return `${Math.floor(hours / 24)}d`;
}
