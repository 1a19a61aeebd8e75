import {mkdtemp, mkdir, readFile, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import vm from 'node:vm';
import {build} from 'esbuild';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {createStackMapper, type StackMapperOptions} from '../../../source/devproxy/sourcemap/stack-mapper.js';
import {browserLocation} from '../../../source/incidents/browser-error.js';
import {startOrigin, type TestOrigin} from '../../helpers/test-network.js';

/**
 * Real bundles, real stacks: esbuild bundles a small TypeScript app (minified, as a production
 * build is) with its source map inline, linked by a comment, or only next to the bundle; node
 * runs the bundle under the URL a browser would load it from and throws; the mapper, fetching
 * over HTTP, must name the lines the error came from in the TypeScript.
 */

const FILES: Record<string, string> = {
  'node_modules/tiny-lib/index.js': ['export function invariant(condition, message) {', '  if (!condition) {', '    throw new TypeError(message);', '  }', '}', ''].join('\n'),
  'src/cart.ts': [
    "import {invariant} from 'tiny-lib';",
    '',
    'export interface Line {',
    '  sku: string;',
    '  qty: number;',
    '}',
    '',
    'export function renderCart(lines: Line[]): string {',
    '  const total = lines.reduce((sum, line) => sum + line.qty, 0);',
    '  invariant(total <= 2, `cart holds ${total} items`);',
    '  return `${total} items`;',
    '}',
    '',
  ].join('\n'),
  'src/main.ts': [
    "import {renderCart} from './cart';",
    '',
    'export function checkout(): string {',
    "  return renderCart([{sku: 'a', qty: 3}]);",
    '}',
    '',
    '(globalThis as unknown as {checkout: typeof checkout}).checkout = checkout;',
    '',
  ].join('\n'),
};

/** `file:line:col` (1-based) of the first occurrence of `text` in a fixture file. */
function positionOf(file: string, text: string): string {
  const lines = FILES[file].split('\n');
  const line = lines.findIndex((candidate) => candidate.includes(text));
  return `${file}:${line + 1}:${lines[line].indexOf(text) + 1}`;
}

const MODES = ['inline', 'linked', 'external'] as const;
let project: string;
let origin: TestOrigin;
let base: string;
const hang: Array<() => void> = [];

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'workbench-sourcemap-'));
  for (const [file, text] of Object.entries(FILES)) {
    await mkdir(join(project, file, '..'), {recursive: true});
    await writeFile(join(project, file), text);
  }
  for (const mode of MODES)
    await build({
      entryPoints: ['src/main.ts'],
      absWorkingDir: project,
      bundle: true,
      minify: true,
      format: 'iife',
      sourcemap: mode,
      outfile: `dist/${mode}/assets/index-3f2a.js`,
      logLevel: 'silent',
    });
  origin = await startOrigin((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    if (path === '/hang/app.js') {
      hang.push(() => response.destroy());
      return;
    }
    readFile(join(project, 'dist', path))
      .then((body) => response.writeHead(200, {'content-type': path.endsWith('.map') ? 'application/json' : 'text/javascript'}).end(body))
      .catch(() => response.writeHead(404).end('not found'));
  });
  base = `http://127.0.0.1:${origin.port}`;
});

afterAll(async () => {
  for (const release of hang) release();
  await origin?.close();
  if (project) await rm(project, {recursive: true, force: true});
});

const fetchText: StackMapperOptions['fetchText'] = async (url, {signal}) => {
  const response = await fetch(url, {signal});
  return response.ok ? response.text() : undefined;
};

/** The stack of the error the bundle throws, run as if loaded from `scriptUrl`. */
async function thrownStack(mode: (typeof MODES)[number], scriptUrl: string): Promise<string> {
  const code = await readFile(join(project, 'dist', mode, 'assets/index-3f2a.js'), 'utf8');
  const context: {checkout?: () => string} = {};
  vm.runInNewContext(code, context, {filename: scriptUrl});
  try {
    context.checkout!();
  } catch (error) {
    return (error as Error).stack ?? '';
  }
  throw new Error('the bundle did not throw');
}

/** The first three frames' locations, V8 style. */
function locations(stack: string): string[] {
  return [...stack.matchAll(/^\s+at .*?\(?([^\s()]+:\d+:\d+)\)?$/gm)].map((match) => match[1]).slice(0, 3);
}

const EXPECTED = [positionOf('node_modules/tiny-lib/index.js', 'new TypeError'), positionOf('src/cart.ts', 'invariant(total'), positionOf('src/main.ts', 'renderCart([')];

describe('mapStack over real esbuild bundles', () => {
  it.each(MODES)('maps a minified V8 stack through a %s source map to the TypeScript lines', async (mode) => {
    const scriptUrl = `${base}/${mode}/assets/index-3f2a.js`;
    const raw = await thrownStack(mode, scriptUrl);
    expect(locations(raw)[0]).toMatch(/\/assets\/index-3f2a\.js:1:\d+$/);
    const mapStack = createStackMapper({fetchText});
    const mapped = await mapStack(raw, `${base}/${mode}/`);
    expect(mapped.split('\n')[0]).toBe('TypeError: cart holds 3 items');
    expect(locations(mapped)).toEqual(EXPECTED);
    // The inbox's location skips the library frame and names the app's own line.
    expect(browserLocation(mapped)).toBe(EXPECTED[1]);
    // Frames that are not the page's scripts (the test runner's) are left as they were.
    const foreign = raw.split('\n').filter((line) => line.includes('file://'));
    expect(foreign.length).toBeGreaterThan(0);
    for (const line of foreign) expect(mapped.split('\n')).toContain(line);
  });

  it('maps Firefox/Safari frames (fn@url:line:col)', async () => {
    const scriptUrl = `${base}/linked/assets/index-3f2a.js`;
    const raw = await thrownStack('linked', scriptUrl);
    const firefox = [...raw.matchAll(/^\s+at (?:(.+) \()?(\S+\/assets\/index-3f2a\.js:\d+:\d+)\)?$/gm)].map((match) => `${match[1] ?? ''}@${match[2]}`).join('\n');
    expect(firefox.split('\n')).toHaveLength(3);
    const mapped = await createStackMapper({fetchText})(firefox, `${base}/`);
    expect(mapped.split('\n').map((line) => line.slice(line.indexOf('@') + 1))).toEqual(EXPECTED);
    expect(browserLocation(mapped)).toBe(EXPECTED[1]);
  });

  it('fetches each script and map once for many stacks, and again when the map has aged', async () => {
    const scriptUrl = `${base}/external/assets/index-3f2a.js`;
    const raw = await thrownStack('external', scriptUrl);
    let clock = 0;
    const mapStack = createStackMapper({fetchText, now: () => clock, cacheMaxAgeMs: 1_000});
    const before = origin.hits.length;
    const results = await Promise.all(Array.from({length: 20}, () => mapStack(raw, `${base}/`)));
    for (const result of results) expect(locations(result)).toEqual(EXPECTED);
    expect(origin.hits.slice(before)).toEqual(['/external/assets/index-3f2a.js', '/external/assets/index-3f2a.js.map']);
    clock = 1_500;
    expect(locations(await mapStack(raw, `${base}/`))).toEqual(EXPECTED);
    expect(origin.hits.length - before).toBe(4);
  });

  it('keeps at most the configured number of maps, least recently used out first', async () => {
    const stacks = await Promise.all(MODES.map((mode) => thrownStack(mode, `${base}/${mode}/assets/index-3f2a.js`)));
    const mapStack = createStackMapper({fetchText, cacheEntries: 2});
    for (const stack of stacks) await mapStack(stack, `${base}/`);
    const before = origin.hits.length;
    await mapStack(stacks[2], `${base}/`);
    await mapStack(stacks[1], `${base}/`);
    expect(origin.hits.length).toBe(before);
    await mapStack(stacks[0], `${base}/`);
    expect(origin.hits.slice(before)).toEqual(['/inline/assets/index-3f2a.js']);
  });

  it('leaves a stack unmapped, without throwing, when fetches hang, fail or are refused', async () => {
    const hanging = 'TypeError: x\n    at run (' + `${base}/hang/app.js:1:10)`;
    expect(await createStackMapper({fetchText, fetchTimeoutMs: 100})(hanging, `${base}/`)).toBe(hanging);
    const missing = `TypeError: x\n    at run (${base}/missing/app.js:1:10)`;
    expect(await createStackMapper({fetchText})(missing, `${base}/`)).toBe(missing);
    const throwing = createStackMapper({
      fetchText: () => {
        throw new Error('refused');
      },
    });
    expect(await throwing(missing, `${base}/`)).toBe(missing);
  });

  it('does not fetch scripts from another origin than the page', async () => {
    const raw = await thrownStack('linked', `http://localhost:${origin.port}/linked/assets/index-3f2a.js`);
    const before = origin.hits.length;
    expect(await createStackMapper({fetchText})(raw, `${base}/`)).toBe(raw);
    expect(origin.hits.length).toBe(before);
  });

  it('ignores a map larger than the cap', async () => {
    const raw = await thrownStack('linked', `${base}/linked/assets/index-3f2a.js`);
    expect(await createStackMapper({fetchText, maxMapBytes: 100})(raw, `${base}/`)).toBe(raw);
  });
});
