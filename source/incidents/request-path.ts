/**
 * The path of a logged request URL (absolute or origin-relative), without query or fragment:
 * the `<path>` of an HTTP entry's message, so `?t=123` cache busters do not defeat dedupe.
 */
export function requestPath(url: string): string {
  let start = 0;
  const scheme = url.indexOf('://');
  if (scheme > 0 && scheme < 10) {
    const slash = url.indexOf('/', scheme + 3);
    if (slash < 0) return '/';
    start = slash;
  }
  let end = url.length;
  const query = url.indexOf('?', start);
  if (query >= 0) end = query;
  const hash = url.indexOf('#', start);
  if (hash >= 0 && hash < end) end = hash;
  return end > start ? url.slice(start, end) : '/';
}

/** Whether the request was a WebSocket (logged by the proxy with a ws:// or wss:// URL). */
export function isWebSocketUrl(url: string): boolean {
  return /^wss?:\/\//i.test(url);
}
