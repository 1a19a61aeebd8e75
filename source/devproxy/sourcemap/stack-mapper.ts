import {SourceMapConsumer} from 'source-map-js';
import {MapCache} from './map-cache.js';
import {decodeDataUrl, sourceMappingUrl} from './source-mapping-url.js';
import {displaySource} from './source-path.js';
import {parseStackFrame, type StackFrame} from './stack-frames.js';

/**
 * Browser stacks through source maps (issue 8 item 10): each frame of a bundle with a map reads
 * where the code was written (`at renderCart (src/Cart.tsx:42:7)`), not where the bundler put it
 * (`assets/index-3f2a.js:1:90412`). The map is found as browsers' devtools find it: a `data:`
 * URL in the script's `sourceMappingURL` comment, the URL that comment names (relative to the
 * script), else `<script>.map` next to it.
 *
 * Only scripts on the page's own origin are fetched — through the proxy's target, by the
 * caller's `fetchText` — so a page cannot make the proxy fetch elsewhere. Mapping never throws:
 * a frame that cannot be mapped (no map, a fetch that fails or times out, a map too large or
 * malformed, a position the map does not cover) stays as the browser printed it.
 */
export type MapStack = (stack: string, pageUrl: string) => Promise<string>;

export interface StackMapperOptions {
  /** The text at `url` (a script or a map), or undefined when there is none (not 2xx, too large, refused). Should stop at `maxBytes` and on `signal`. */
  fetchText(url: string, options: {signal: AbortSignal; maxBytes: number}): Promise<string | undefined>;
  /** The project's directory, so sources named by absolute path on disk read relative to it. */
  projectRoot?: string;
  /** Per fetch; default 5 s. */
  fetchTimeoutMs?: number;
  /** A larger map is not used; default 20 MB. */
  maxMapBytes?: number;
  /** A larger script is not read for its sourceMappingURL (`<script>.map` is still tried); default 50 MB. */
  maxScriptBytes?: number;
  /** Maps kept: at most this many (default 32) … */
  cacheEntries?: number;
  /** … whose texts sum to at most this (default 64 MB). */
  cacheBytes?: number;
  /** How long a script's map (or the lack of one) is trusted; default 10 s. */
  cacheMaxAgeMs?: number;
  now?: () => number;
}

const MB = 1024 * 1024;
// A stack is short (V8 keeps 10 frames by default); these bound a crafted one.
const MAX_LINES = 200;
const MAX_SCRIPTS = 16;

interface LoadedMap {
  consumer: SourceMapConsumer;
  /** What relative sources resolve against: the map's URL, or the script's for an inline map. */
  base: string;
}

export function createStackMapper(options: StackMapperOptions): MapStack {
  const timeoutMs = options.fetchTimeoutMs ?? 5_000;
  const maxMapBytes = options.maxMapBytes ?? 20 * MB;
  const maxScriptBytes = options.maxScriptBytes ?? 50 * MB;
  const cache = new MapCache<LoadedMap>({
    entries: options.cacheEntries ?? 32,
    bytes: options.cacheBytes ?? 64 * MB,
    maxAgeMs: options.cacheMaxAgeMs ?? 10_000,
    now: options.now ?? Date.now,
  });

  async function fetchBounded(url: string, maxBytes: number): Promise<string | undefined> {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    // The race holds even when fetchText ignores the signal.
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => {
        controller.abort();
        resolve(undefined);
      }, timeoutMs);
    });
    try {
      const text = await Promise.race([options.fetchText(url, {signal: controller.signal, maxBytes}), timeout]);
      return typeof text === 'string' && text.length <= maxBytes ? text : undefined;
    } catch {
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  async function loadMap(scriptUrl: string): Promise<{value: LoadedMap; bytes: number} | undefined> {
    const script = await fetchBounded(scriptUrl, maxScriptBytes);
    const reference = script === undefined ? undefined : sourceMappingUrl(script);
    let text: string | undefined;
    let base: string;
    if (reference !== undefined && /^data:/i.test(reference)) {
      text = decodeDataUrl(reference);
      base = scriptUrl;
    } else {
      const mapUrl = reference === undefined ? besideScript(scriptUrl) : sameOrigin(reference, scriptUrl);
      if (mapUrl === undefined) return undefined;
      text = await fetchBounded(mapUrl, maxMapBytes);
      base = mapUrl;
    }
    if (text === undefined || text.length > maxMapBytes) return undefined;
    // A map may start with `)]}'` against cross-site script inclusion (ECMA-426); its first line is dropped.
    const json = text.startsWith(')]}') ? text.slice(text.indexOf('\n') + 1) : text;
    try {
      return {value: {consumer: new SourceMapConsumer(json), base}, bytes: text.length};
    } catch {
      return undefined;
    }
  }

  function mapFrame(frame: StackFrame, loaded: LoadedMap): string | undefined {
    const position = loaded.consumer.originalPositionFor({line: frame.line, column: frame.column - 1, bias: SourceMapConsumer.GREATEST_LOWER_BOUND});
    if (position.source === null || position.source === undefined || position.line === null || position.column === null) return undefined;
    const file = displaySource(position.source, loaded.base, options.projectRoot);
    return frame.withLocation(`${file}:${position.line}:${position.column + 1}`);
  }

  return async function mapStack(stack: string, pageUrl: string): Promise<string> {
    try {
      if (typeof stack !== 'string' || stack === '') return stack;
      const origin = httpOrigin(pageUrl);
      if (origin === undefined) return stack;
      const lines = stack.split('\n');
      const frames = new Map<number, StackFrame>();
      const scripts = new Set<string>();
      for (let index = 0; index < Math.min(lines.length, MAX_LINES); index += 1) {
        const frame = parseStackFrame(lines[index].replace(/\r$/, ''));
        if (!frame || httpOrigin(frame.url) !== origin) continue;
        if (!scripts.has(frame.url) && scripts.size >= MAX_SCRIPTS) continue;
        scripts.add(frame.url);
        frames.set(index, frame);
      }
      if (frames.size === 0) return stack;
      const maps = new Map<string, LoadedMap | undefined>();
      await Promise.all([...scripts].map(async (url) => maps.set(url, await cache.get(url, () => loadMap(url)))));
      for (const [index, frame] of frames) {
        const loaded = maps.get(frame.url);
        const mapped = loaded && mapFrame(frame, loaded);
        if (mapped !== undefined) lines[index] = mapped + (lines[index].endsWith('\r') ? '\r' : '');
      }
      return lines.join('\n');
    } catch {
      return stack;
    }
  };
}

function httpOrigin(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

/** `reference` resolved against the script, when it stays on the script's origin. */
function sameOrigin(reference: string, scriptUrl: string): string | undefined {
  try {
    const resolved = new URL(reference, scriptUrl);
    return resolved.origin === new URL(scriptUrl).origin ? resolved.href : undefined;
  } catch {
    return undefined;
  }
}

/** `<script>.map`: the script's URL without its query (Vite's `?v=`, `?t=`) plus `.map`. */
function besideScript(scriptUrl: string): string | undefined {
  try {
    const url = new URL(scriptUrl);
    url.search = '';
    url.hash = '';
    url.pathname += '.map';
    return url.href;
  } catch {
    return undefined;
  }
}
