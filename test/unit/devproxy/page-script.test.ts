import {describe, expect, it} from 'vitest';
import {pageScript, primitives, primitivesReference} from '../../../source/devproxy/page-script.js';
import {toJsonSafe} from '../../../source/devproxy/page/json-safe.js';

describe('the page script as Node sees it (no DOM here)', () => {
  it('is one minified IIFE that can be inlined in a <script> element', () => {
    const script = pageScript();
    expect(script.length).toBeGreaterThan(10_000);
    expect(script).toMatch(/^"use strict";\(\(\)=>\{/);
    expect(script).not.toMatch(/<\/script/i);
    expect(script).not.toMatch(/<!--/);
    expect(script).toContain('/__workbench/ws');
  });

  it('lists at least 50 primitives, each with a group, parameters and a one-line summary, names unique', () => {
    const list = primitives();
    expect(list.length).toBeGreaterThanOrEqual(50);
    expect(new Set(list.map((entry) => entry.name)).size).toBe(list.length);
    for (const entry of list) {
      expect(entry.name).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(entry.summary.length, entry.name).toBeGreaterThan(10);
      expect(entry.summary, entry.name).not.toContain('\n');
    }
    expect(list.map((entry) => entry.name)).toEqual(
      expect.arrayContaining(['log', 'getElementInfo', 'auditAccessibility', 'getContrast', 'getTabOrder', 'waitForElement', 'snapshotDom', 'diffSnapshots']),
    );
  });

  it('prints the reference: a section per group, a line per primitive with its parameters', () => {
    const text = primitivesReference();
    expect(text).toMatch(/^# window\.__devtool\n/);
    expect(text).toContain('## Accessibility');
    expect(text).toContain('- `log(level, message, data?)` — ');
    expect(text).toContain('- `checkOverlap(selectorA, selectorB)` — ');
    expect(text.split('\n').filter((line) => line.startsWith('- `'))).toHaveLength(primitives().length);
  });
});

describe('toJsonSafe', () => {
  it('replaces cycles, keeps shared (non-cyclic) references', () => {
    const shared = {n: 1};
    const value: Record<string, unknown> = {a: shared, b: shared};
    value.self = value;
    expect(toJsonSafe(value)).toEqual({a: {n: 1}, b: {n: 1}, self: '[Circular]'});
  });

  it('turns functions, BigInt, symbols, NaN, dates, errors, maps and sets into data', () => {
    const result = toJsonSafe({
      f: function go() {},
      big: 2n ** 70n,
      sym: Symbol('s'),
      nan: NaN,
      inf: -Infinity,
      date: new Date(0),
      error: new TypeError('t'),
      map: new Map([['k', 1]]),
      set: new Set([1, 2]),
      gone: undefined,
    }) as Record<string, unknown>;
    expect(result).toMatchObject({
      f: '[Function go]',
      big: '1180591620717411303424n',
      sym: 'Symbol(s)',
      nan: 'NaN',
      inf: '-Infinity',
      date: '1970-01-01T00:00:00.000Z',
      error: {name: 'TypeError', message: 't'},
      map: [['k', 1]],
      set: [1, 2],
    });
    expect(result).not.toHaveProperty('gone');
    expect(() => JSON.stringify(result)).not.toThrow();
  });

  it('caps depth, width and total size', () => {
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let index = 0; index < 50; index++) deep = deep.next = {};
    expect(JSON.stringify(toJsonSafe(root, {maxDepth: 3}))).toBe('{"next":{"next":{"next":"[Depth limit]"}}}');
    expect(
      toJsonSafe(
        Array.from({length: 10}, (_, index) => index),
        {maxItems: 3},
      ),
    ).toEqual([0, 1, 2, '… 7 more items']);
    const big = toJsonSafe(
      Array.from({length: 1000}, () => 'x'.repeat(1000)),
      {maxChars: 10_000},
    ) as string[];
    expect(JSON.stringify(big).length).toBeLessThan(13_000);
    expect(big.at(-1)).toBe('[Truncated]');
  });

  it('survives getters that throw and toJSON', () => {
    const value = {
      get boom(): never {
        throw new Error('no access');
      },
      wrapped: {toJSON: () => ({plain: true})},
    };
    expect(toJsonSafe(value)).toEqual({boom: '[Thrown: no access]', wrapped: {plain: true}});
  });
});
