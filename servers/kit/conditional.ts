/**
 * Whether a conditional GET may answer 304 (RFC 9110 §13.1): If-None-Match decides when present
 * (weak comparison, `*` matches); else If-Modified-Since, to the second.
 */
export function notModified(headers: Record<string, string | string[] | undefined>, etag: string, modifiedMs: number | null): boolean {
  const match = headers['if-none-match'];
  if (typeof match === 'string') {
    // Most clients send back the one tag they were given: no split for them.
    if (match === etag) return true;
    const tags = match.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
    return tags.includes('*') || tags.includes(etag);
  }
  const since = headers['if-modified-since'];
  if (typeof since !== 'string' || modifiedMs === null) return false;
  const sinceMs = Date.parse(since);
  return Number.isFinite(sinceMs) && Math.floor(modifiedMs / 1000) * 1000 <= sinceMs;
}
