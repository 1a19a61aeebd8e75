import {describe, expect, it} from 'vitest';
// @ts-expect-error a plain JS module of the build (scripts/build.mjs injects it into ink's output.js)
import {withLastFrame} from '../../../scripts/ink-frame-caches.js';

// ink 6.8's OutputCaches, as far as the build's helper uses it: per-frame maps, filled on a miss.
class OutputCaches {
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

describe('ink frame caches (scripts/ink-frame-caches.js)', () => {
  it('a frame takes what the last one worked out, and keeps no older frame', () => {
    const first = withLastFrame(new OutputCaches()) as OutputCaches;
    const chars = first.getStyledChars('web running 5m');
    first.getStringWidth('│');
    first.getStyledChars('GET / 200');

    const second = withLastFrame(new OutputCaches()) as OutputCaches;
    expect(second.getStyledChars('web running 5m')).toBe(chars);
    expect(second.getStringWidth('│')).toBe(1);
    expect(second.worked).toBe(0);
    expect(second.getStyledChars('GET /health 200')).toHaveLength(15);
    expect(second.worked).toBe(1);

    // The third frame sees the second's lines only: what the second did not use is gone.
    const third = withLastFrame(new OutputCaches()) as OutputCaches;
    third.getStyledChars('GET / 200');
    expect(third.worked).toBe(1);
    expect((second as unknown as {lastFrame?: unknown}).lastFrame).toBeUndefined();
  });
});
