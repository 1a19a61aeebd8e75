/** Epoch ms as RFC 3339 (UTC, milliseconds); a broken stamp reads as the epoch rather than throwing. */
export function toRfc3339(ms: number): string {
  return new Date(Number.isFinite(ms) ? ms : 0).toISOString();
}
