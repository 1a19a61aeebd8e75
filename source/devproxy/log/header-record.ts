import type {IncomingHttpHeaders} from 'node:http';

// Header values repeat from request to request (user agent, cookies, accept, a second's Date): the
// log keeps one copy of each, so 100,000 entries hold their headers in a few kilobytes of strings
// instead of ~1 KB each. The table is dropped when full; long values are not shared.
const MAX_SHARED = 8192;
const MAX_SHARED_LENGTH = 1024;
const shared = new Map<string, string>();

function share(value: string): string {
  if (value.length > MAX_SHARED_LENGTH) return value;
  const known = shared.get(value);
  if (known !== undefined) return known;
  if (shared.size >= MAX_SHARED) shared.clear();
  shared.set(value, value);
  return value;
}

/** Headers as the log keeps them: one string per name (a repeated Set-Cookie joins with newlines, as it cannot with commas), values shared. */
export function headerRecord(headers: IncomingHttpHeaders): Record<string, string> {
  const record: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined) record[name] = share(Array.isArray(value) ? value.join('\n') : value);
  }
  return record;
}
