import {describe, expect, it} from 'vitest';
import {decodeDataUrl, sourceMappingUrl} from '../../../source/devproxy/sourcemap/source-mapping-url.js';
import {displaySource} from '../../../source/devproxy/sourcemap/source-path.js';
import {parseStackFrame} from '../../../source/devproxy/sourcemap/stack-frames.js';

describe('parseStackFrame', () => {
  it.each([
    ['    at renderCart (http://h/assets/a.js:1:90412)', 'http://h/assets/a.js', 1, 90412, '    at renderCart (src/Cart.tsx:4:2)'],
    ['    at http://h/assets/a.js:3:7', 'http://h/assets/a.js', 3, 7, '    at src/Cart.tsx:4:2'],
    [
      '    at async Object.c [as checkout] (http://h:5173/src/App.tsx?t=17:12:9)',
      'http://h:5173/src/App.tsx?t=17',
      12,
      9,
      '    at async Object.c [as checkout] (src/Cart.tsx:4:2)',
    ],
    ['handleClick@http://h/src/App.jsx:12:9', 'http://h/src/App.jsx', 12, 9, 'handleClick@src/Cart.tsx:4:2'],
    ['App/</<@http://h/a.js:1:5', 'http://h/a.js', 1, 5, 'App/</<@src/Cart.tsx:4:2'],
    ['global code@http://h/a.js:2:1', 'http://h/a.js', 2, 1, 'global code@src/Cart.tsx:4:2'],
    ['@http://h/a.js:2:1', 'http://h/a.js', 2, 1, '@src/Cart.tsx:4:2'],
  ])('reads %s', (line, url, frameLine, column, rewritten) => {
    const frame = parseStackFrame(line)!;
    expect(frame).toMatchObject({url, line: frameLine, column});
    expect(frame.withLocation('src/Cart.tsx:4:2')).toBe(rewritten);
  });

  it.each([
    'TypeError: cart holds 3 items',
    '    at Array.map (<anonymous>)',
    '    at eval (eval at run (http://h/a.js:1:2), <anonymous>:3:4)',
    '    at async Promise.all (index 0)',
    '    at f (http://h/a.js:0:0)',
    '',
  ])('leaves %j alone', (line) => {
    expect(parseStackFrame(line)).toBeUndefined();
  });
});

describe('sourceMappingUrl', () => {
  it('takes the last comment, in either marker style', () => {
    expect(sourceMappingUrl('a()\n//# sourceMappingURL=old.js.map\nb()\n//# sourceMappingURL=index.js.map\n')).toBe('index.js.map');
    expect(sourceMappingUrl('a()\n//@ sourceMappingURL=legacy.map')).toBe('legacy.map');
    expect(sourceMappingUrl('a{}\n/*# sourceMappingURL=app.css.map */')).toBe('app.css.map');
  });

  it('skips the marker quoted in code after the real comment, and finds none where there is none', () => {
    expect(sourceMappingUrl('x()\n//# sourceMappingURL=real.map\nconst s = "sourceMappingURL=fake.map";')).toBe('real.map');
    expect(sourceMappingUrl('const s = "sourceMappingURL=fake.map";')).toBeUndefined();
    expect(sourceMappingUrl('x()\n//# sourceMappingURL=\n')).toBeUndefined();
    expect(sourceMappingUrl('')).toBeUndefined();
  });
});

describe('decodeDataUrl', () => {
  const map = '{"version":3,"sources":["é.ts"],"mappings":""}';
  it('decodes base64 and percent-encoded maps', () => {
    expect(decodeDataUrl(`data:application/json;charset=utf-8;base64,${Buffer.from(map).toString('base64')}`)).toBe(map);
    expect(decodeDataUrl(`data:application/json,${encodeURIComponent(map)}`)).toBe(map);
  });
  it('refuses what is not a data URL or does not decode', () => {
    expect(decodeDataUrl('index.js.map')).toBeUndefined();
    expect(decodeDataUrl('data:application/json;base64')).toBeUndefined();
    expect(decodeDataUrl('data:application/json,%E0%A4%A')).toBeUndefined();
  });
});

describe('displaySource: where a mapped frame points, relative to the project', () => {
  it.each([
    ['Vite dev (sources relative to the module)', 'App.tsx', 'http://localhost:5173/src/App.tsx?t=1700000000', 'src/App.tsx'],
    ['a build (../../src from /assets/)', '../../src/App.tsx', 'http://localhost:4173/assets/index-3f2a.js.map', 'src/App.tsx'],
    [
      'a dependency',
      '../../react-dom/cjs/react-dom.development.js',
      'http://localhost:5173/node_modules/.vite/deps/react-dom.js.map',
      'node_modules/react-dom/cjs/react-dom.development.js',
    ],
    ['webpack', 'webpack://my-app/./src/App.tsx', 'http://localhost:3000/static/js/main.js.map', 'src/App.tsx'],
    ['webpack with loaders', 'webpack:///./src/App.tsx?1234', 'http://localhost:3000/static/js/main.js.map', 'src/App.tsx'],
    ['webpack runtime', 'webpack://my-app/webpack/bootstrap', 'http://localhost:3000/static/js/main.js.map', 'webpack/bootstrap'],
    ['Turbopack', 'turbopack:///[project]/src/app/page.tsx', 'http://localhost:3000/_next/static/chunks/a.js.map', 'src/app/page.tsx'],
    ['another origin', 'https://cdn.example/lib.ts', 'http://localhost:3000/a.js.map', 'https://cdn.example/lib.ts'],
  ])('%s', (_case, source, base, shown) => {
    expect(displaySource(source, base)).toBe(shown);
  });

  it('makes paths on disk relative to the project root', () => {
    expect(displaySource('/home/me/app/src/App.tsx', 'http://localhost:5173/src/App.tsx', '/home/me/app')).toBe('src/App.tsx');
    expect(displaySource('file:///home/me/app/src/App.tsx', 'http://localhost:5173/a.js.map', '/home/me/app/')).toBe('src/App.tsx');
    expect(displaySource('/@fs/home/me/app/lib/x.ts', 'http://localhost:5173/a.js.map', '/home/me/app')).toBe('lib/x.ts');
    expect(displaySource('file:///elsewhere/x.ts', 'http://localhost:5173/a.js.map', '/home/me/app')).toBe('/elsewhere/x.ts');
  });
});
