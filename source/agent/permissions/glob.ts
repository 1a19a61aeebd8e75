/**
 * The rules' patterns: `*` any run of characters (slashes and spaces too), `?` exactly one, every
 * other character itself; the whole argument must match. Deliberately not a path glob (picomatch
 * treats `/` specially): a rule covers command lines as well as paths, and `npm test*` must match
 * `npm test -- --grep x`.
 */

const cache = new Map<string, RegExp>();

export function globMatches(pattern: string, text: string): boolean {
  let regex = cache.get(pattern);
  if (!regex) {
    const body = [...pattern].map((char) => (char === '*' ? '[\\s\\S]*' : char === '?' ? '[\\s\\S]' : char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('');
    regex = new RegExp(`^${body}$`, 'u');
    if (cache.size > 500) cache.clear();
    cache.set(pattern, regex);
  }
  return regex.test(text);
}
