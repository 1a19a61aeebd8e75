/**
 * The politeness key of a feed URL: host name and port as written (two ports are two servers).
 * Unreadable URLs share one key; their refresh fails fast anyway.
 */
export function hostKey(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return '(invalid url)';
  }
}
