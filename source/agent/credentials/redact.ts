/**
 * Replaces every occurrence of each secret in `text` with `[redacted]`. Secrets shorter than 4
 * characters are left alone: they would blank out ordinary words, and no real key is that short.
 */
export function redact(text: string, secrets: Iterable<string | undefined>): string {
  let result = text;
  const list = [...secrets].filter((secret): secret is string => typeof secret === 'string' && secret.length >= 4);
  // Longest first, so a secret that contains another is replaced whole.
  for (const secret of list.sort((a, b) => b.length - a.length)) result = result.split(secret).join('[redacted]');
  return result;
}
