/**
 * Where a script's source map is (ECMA-426, "linking generated code"): the last
 * `//# sourceMappingURL=<url>` comment (`//@` in old tools, `/*#` in CSS), and the map
 * itself when that URL is a `data:` URL, as Vite's dev server and esbuild's `inline` write it.
 */

const MARKER = 'sourceMappingURL=';
// A bundle may quote the marker in a string (a bundled bundler); the real comment is the last one, so a few tries suffice.
const TRIES = 3;

/** The map URL the script names (as written: relative, absolute or data:), or undefined. */
export function sourceMappingUrl(script: string): string | undefined {
  let at = script.lastIndexOf(MARKER);
  for (let tries = 0; at >= 0 && tries < TRIES; tries += 1) {
    if (opensComment(script, at)) {
      const start = at + MARKER.length;
      let end = start;
      while (end < script.length && !isSpace(script.charCodeAt(end)) && !script.startsWith('*/', end)) end += 1;
      return end > start ? script.slice(start, end) : undefined;
    }
    at = at > 0 ? script.lastIndexOf(MARKER, at - 1) : -1;
  }
  return undefined;
}

/** `//# ` or `//@ ` (or `/*# `), optional spaces around the `#`, right before the marker. */
function opensComment(script: string, at: number): boolean {
  let index = at - 1;
  while (index >= 0 && (script[index] === ' ' || script[index] === '\t')) index -= 1;
  if (script[index] !== '#' && script[index] !== '@') return false;
  index -= 1;
  while (index >= 0 && (script[index] === ' ' || script[index] === '\t')) index -= 1;
  return index >= 1 && script[index - 1] === '/' && (script[index] === '/' || script[index] === '*');
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** The text of a `data:` URL (`;base64` or percent-encoded); undefined when it is not one or does not decode. */
export function decodeDataUrl(url: string): string | undefined {
  if (!/^data:/i.test(url)) return undefined;
  const comma = url.indexOf(',');
  if (comma < 0) return undefined;
  const meta = url.slice('data:'.length, comma);
  const data = url.slice(comma + 1);
  if (/;\s*base64\s*$/i.test(meta)) return Buffer.from(data, 'base64').toString('utf8');
  try {
    return decodeURIComponent(data);
  } catch {
    return undefined;
  }
}
