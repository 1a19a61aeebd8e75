import {describe, expect, it} from 'vitest';
import {FragmentSearch} from '../../../source/processes/scanner/fragment-search.js';

const fragments = ['rror', 'Traceback', 'panic', '⨯ ', 'hmr update', 'FAIL'];
const search = new FragmentSearch(fragments);

function found(text: string): string[] {
  const bytes = Buffer.from(text);
  const names: string[] = [];
  search.each(bytes, 0, bytes.length, (index) => names.push(fragments[index]));
  return names.sort();
}

describe('FragmentSearch', () => {
  it('finds the start of the first fragment on the first line that holds one', () => {
    const bytes = Buffer.from('GET / 200\nok line\nTypeError: x\npanic: y\n');
    expect(search.find(bytes, 0, bytes.length)).toBe(bytes.indexOf('rror'));
    expect(search.find(bytes, bytes.indexOf('panic'), bytes.length)).toBe(bytes.indexOf('panic'));
    expect(search.find(bytes, 0, bytes.indexOf('TypeError'))).toBe(-1);
  });

  it('finds fragments at the very start and end of the range, and only inside it', () => {
    expect(found('rror')).toEqual(['rror']);
    expect(found('xx FAIL')).toEqual(['FAIL']);
    const bytes = Buffer.from('Traceback');
    expect(search.find(bytes, 1, bytes.length)).toBe(-1);
    expect(search.find(bytes, 0, bytes.length - 1)).toBe(-1);
  });

  it('reports every fragment on a line, overlapping ones included, and non-ASCII ones', () => {
    expect(found(' ⨯ Error: x [vite] hmr update /src/a.ts FAILrror')).toEqual(['FAIL', 'hmr update', 'rror', 'rror', '⨯ ']);
    expect(found('GET /api/users 200 in 12ms — ünïcödé')).toEqual([]);
  });

  it('agrees with indexOf on a long mixed text', () => {
    const words = ['GET /x 200', 'error', 'Traceback (most', 'hmr update /a', 'pan', 'panic:', 'FAI', 'FAIL', '⨯ ', '⨯', 'ok'];
    let text = '';
    for (let i = 0; i < 5000; i++) text += `${words[(i * 7919) % words.length]}${i % 13 === 0 ? '\n' : ' '}`;
    const bytes = Buffer.from(text);
    const expected = fragments.reduce((sum, fragment) => sum + text.split(fragment).length - 1, 0);
    let count = 0;
    search.each(bytes, 0, bytes.length, () => count++);
    expect(count).toBe(expected);
  });

  it('refuses fragments shorter than its 4-byte window', () => {
    expect(() => new FragmentSearch(['ERR'])).toThrow(/shorter than 4 bytes/);
  });
});
