import {SourceMapGenerator} from 'source-map-js';
import {describe, expect, it} from 'vitest';
import {createStackMapper} from '../../../source/devproxy/sourcemap/stack-mapper.js';
import {browserLocation} from '../../../source/incidents/browser-error.js';

/**
 * A Vite dev server serves each module transformed, with its map inline and its sources relative
 * to the module (`App.tsx` for `/src/App.tsx`); fetchText here answers as that server would.
 */
const PAGE = 'http://127.0.0.1:5173/';

function viteModule(): string {
  const map = new SourceMapGenerator({file: 'App.tsx'});
  // Line 30 column 5 of the served module (a frame's 1-based column) came from App.tsx line 42 column 7 (lines 1-based, columns 0-based in a map).
  map.addMapping({generated: {line: 30, column: 4}, original: {line: 42, column: 6}, source: 'App.tsx'});
  return `export default 1;\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(map.toString()).toString('base64')}\n`;
}

function served(files: Record<string, string>, asked: string[] = []) {
  return async (url: string) => {
    asked.push(url);
    return files[new URL(url).pathname];
  };
}

const STACK = [
  "TypeError: Cannot read properties of null (reading 'focus')",
  `    at commitRoot (${PAGE}node_modules/.vite/deps/react-dom.js?v=9a1c:19451:5)`,
  `    at Cart (${PAGE}src/App.tsx?t=1700000000:30:5)`,
].join('\n');

describe('createStackMapper', () => {
  it('maps a Vite module through its inline map to src/App.tsx, which the inbox takes as the location', async () => {
    const mapStack = createStackMapper({fetchText: served({'/src/App.tsx': viteModule()})});
    const mapped = await mapStack(STACK, PAGE);
    expect(mapped.split('\n')[2]).toBe('    at Cart (src/App.tsx:42:7)');
    // The dependency has no map here: its frame stays, and the inbox still skips it.
    expect(mapped.split('\n')[1]).toBe(STACK.split('\n')[1]);
    expect(browserLocation(mapped)).toBe('src/App.tsx:42:7');
  });

  it('keeps a frame the map does not cover', async () => {
    const stack = `Error: x\n    at f (${PAGE}src/App.tsx:2:1)`;
    expect(await createStackMapper({fetchText: served({'/src/App.tsx': viteModule()})})(stack, PAGE)).toBe(stack);
  });

  it.each([
    ['a map that is not JSON', '{"version":3,'],
    ['a map that is not a source map', '{"hello":"world"}'],
    ['a map with broken mappings', '{"version":3,"sources":["a.ts"],"names":[],"mappings":"!!!!"}'],
    ['an empty map', ''],
  ])('leaves the stack as it was for %s', async (_case, map) => {
    const mapStack = createStackMapper({fetchText: served({'/src/App.tsx': 'x()\n//# sourceMappingURL=App.tsx.map', '/src/App.tsx.map': map})});
    expect(await mapStack(STACK, PAGE)).toBe(STACK);
  });

  it('does not follow a sourceMappingURL to another origin', async () => {
    const asked: string[] = [];
    const mapStack = createStackMapper({fetchText: served({'/src/App.tsx': 'x()\n//# sourceMappingURL=http://169.254.169.254/latest/meta-data'}, asked)});
    expect(await mapStack(STACK, PAGE)).toBe(STACK);
    expect(asked.every((url) => url.startsWith(PAGE))).toBe(true);
  });

  it('answers garbage with what it was given', async () => {
    const mapStack = createStackMapper({fetchText: served({'/src/App.tsx': viteModule()})});
    expect(await mapStack('', PAGE)).toBe('');
    expect(await mapStack(STACK, 'not a url')).toBe(STACK);
    expect(await mapStack(STACK, 'file:///etc/passwd')).toBe(STACK);
    expect(await mapStack(undefined as unknown as string, PAGE)).toBeUndefined();
    expect(await mapStack('\u0000'.repeat(10_000), PAGE)).toBe('\u0000'.repeat(10_000));
  });

  it('asks for no more than a handful of scripts for one crafted stack', async () => {
    const asked: string[] = [];
    const stack = ['Error: x', ...Array.from({length: 500}, (_, index) => `    at f (${PAGE}chunk-${index}.js:1:1)`)].join('\n');
    await createStackMapper({fetchText: served({}, asked)})(stack, PAGE);
    // Each script: the script itself, then its `.map`.
    expect(asked.length).toBe(32);
  });
});
