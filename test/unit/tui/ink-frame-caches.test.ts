import {describe, expect, it} from 'vitest';
import sliceAnsi from 'slice-ansi';
import {styledCharsToString} from '@alcalzone/ansi-tokenize';
// @ts-expect-error a plain JS module of the build (scripts/build.mjs injects it into ink's output.js)
import {rowReusingGet, withRecentFrames} from '../../../scripts/ink-frame-caches.js';

// ink 6.8's OutputCaches, as far as the build's helper uses it: per-frame maps, filled on a miss.
class CountingCaches {
  widths = new Map<string, number>();
  blockWidths = new Map<string, number>();
  styledChars = new Map<string, unknown[]>();
  worked = 0;
  getStyledChars(line: string): unknown[] {
    let cached = this.styledChars.get(line);
    if (cached === undefined) {
      this.worked++;
      cached = [...line].map((value) => ({type: 'char', value, styles: []}));
      this.styledChars.set(line, cached);
    }
    return cached;
  }
  getStringWidth(text: string): number {
    let cached = this.widths.get(text);
    if (cached === undefined) {
      this.worked++;
      cached = text.length;
      this.widths.set(text, cached);
    }
    return cached;
  }
}

interface InkOutput {
  width: number;
  height: number;
  write(x: number, y: number, text: string, options: {transformers: Array<(line: string, index: number) => string>}): void;
  clip(clip: {x1?: number; x2?: number; y1?: number; y2?: number}): void;
  unclip(): void;
  get(): {output: string; height: number};
}
// ink's own Output (not exported by the package): the reference the build's get must match.
const {default: Output} = (await import(new URL('../../../node_modules/ink/build/output.js', import.meta.url).href)) as {
  default: new (options: {width: number; height: number}) => InkOutput;
};
const inkGet = Output.prototype.get;

/** A small deterministic random source, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const PIECES = [
  'web',
  'worker',
  ' ',
  '│',
  '▸ ',
  '\u001b[32mrunning\u001b[39m',
  '\u001b[2m 8045\u001b[22m',
  '\u001b[1m\u001b[36mProcesses\u001b[39m\u001b[22m',
  '日本語',
  '😀',
  'GET /health 200',
  '',
];
const upper = (line: string) => line.toUpperCase();

/** The writes a frame of ink might make: text (some multi-line, coloured, wide), clips, transformers, off-screen lines. */
function drawFrame(output: InkOutput, next: () => number, lines: number): void {
  const pick = () => PIECES[Math.floor(next() * PIECES.length)]!;
  for (let write = 0; write < lines; write++) {
    const roll = next();
    if (roll < 0.1) output.clip({x1: Math.floor(next() * 10), x2: 10 + Math.floor(next() * 30), y1: Math.floor(next() * 4), y2: 4 + Math.floor(next() * 10)});
    else if (roll < 0.15) output.clip({y1: 1, y2: 6});
    else if (roll < 0.25) output.unclip();
    const text = Array.from({length: 1 + Math.floor(next() * 3)}, () => pick() + pick() + pick()).join(next() < 0.3 ? '\n' : '');
    output.write(Math.floor(next() * 40) - 2, Math.floor(next() * 16) - 1, text, {transformers: next() < 0.2 ? [upper] : []});
  }
}

describe('ink frame caches (scripts/ink-frame-caches.js)', () => {
  it('a frame takes what recent frames worked out: a line shown two frames ago is not worked out again', () => {
    const first = withRecentFrames(new CountingCaches()) as CountingCaches;
    const chars = first.getStyledChars('web running 5m');
    first.getStringWidth('│');
    first.getStyledChars('GET / 200');

    const second = withRecentFrames(new CountingCaches()) as CountingCaches;
    expect(second.getStyledChars('web running 5m')).toBe(chars);
    expect(second.getStringWidth('│')).toBe(1);
    expect(second.worked).toBe(0);
    expect(second.getStyledChars('GET /health 200')).toHaveLength(15);
    expect(second.worked).toBe(1);

    // j then k: the first process's output comes back.
    const third = withRecentFrames(new CountingCaches()) as CountingCaches;
    third.getStyledChars('GET / 200');
    expect(third.worked).toBe(0);
  });

  it('frames are what ink 6.8 draws, row for row, whatever was drawn before (random frames, reused rows)', () => {
    let strung = 0;
    const get = rowReusingGet({
      sliceAnsi,
      styledCharsToString: (chars: Parameters<typeof styledCharsToString>[0]) => {
        strung++;
        return styledCharsToString(chars);
      },
    }) as () => {output: string; height: number};
    const next = random(7);
    let previousSeed = 0;
    for (let frame = 0; frame < 400; frame++) {
      // Often the same writes as the frame before (nothing or little changed), sometimes a new size.
      const seed = next() < 0.5 ? previousSeed : Math.floor(next() * 1e9);
      previousSeed = seed;
      const width = frame % 50 === 49 ? 30 : 48;
      const output = new Output({width, height: 14});
      drawFrame(output, random(seed), 4 + (seed % 12));
      if (next() < 0.3) output.write(Math.floor(next() * 20), Math.floor(next() * 14), PIECES[frame % PIECES.length]!, {transformers: []});
      expect(get.call(output)).toEqual(inkGet.call(output));
    }
    // Rows equal to the last frame's were taken whole, not strung again.
    expect(strung).toBeLessThan(400 * 14 * 0.75);
  });

  it('a row whose writes changed is drawn anew; one whose writes did not is the same string', () => {
    const get = rowReusingGet({sliceAnsi, styledCharsToString}) as () => {output: string; height: number};
    const frame = (selected: number) => {
      const output = new Output({width: 20, height: 3});
      for (let row = 0; row < 3; row++) output.write(0, row, `${row === selected ? '▸' : ' '} \u001b[32mproc ${row}\u001b[39m`, {transformers: []});
      return output;
    };
    const first = frame(0);
    expect(get.call(first)).toEqual(inkGet.call(first));
    const second = frame(1);
    const drawn = get.call(second);
    expect(drawn).toEqual(inkGet.call(second));
    expect(drawn.output.split('\n')[0]).toBe('  \u001b[32mproc 0\u001b[39m');
    expect(drawn.output.split('\n')[1]).toBe('▸ \u001b[32mproc 1\u001b[39m');
  });
});
