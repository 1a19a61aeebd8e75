import {PNG} from 'pngjs';
import {describe, expect, it} from 'vitest';
import {compareImages} from '../../../source/snapshot/compare.js';

function image(width: number, height: number, paint: (x: number, y: number) => [number, number, number] = () => [255, 255, 255]): Buffer {
  const png = new PNG({width, height});
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const offset = (y * width + x) * 4;
      png.data.set([...paint(x, y), 255], offset);
    }
  return PNG.sync.write(png);
}

describe('compareImages', () => {
  it('finds no change between equal images, and writes a diff of their size', () => {
    const result = compareImages(image(40, 30), image(40, 30));
    expect(result).toMatchObject({changedPixels: 0, totalPixels: 1200, ratio: 0, sizeMismatch: false});
    const diff = PNG.sync.read(result.diffPng);
    expect([diff.width, diff.height]).toEqual([40, 30]);
  });

  it('counts the changed pixels and paints them red in the diff', () => {
    const changed = image(40, 30, (x, y) => (x < 10 && y < 10 ? [0, 0, 0] : [255, 255, 255]));
    const result = compareImages(image(40, 30), changed);
    expect(result.changedPixels).toBe(100);
    expect(result.ratio).toBeCloseTo(100 / 1200);
    const diff = PNG.sync.read(result.diffPng);
    expect([...diff.data.subarray(0, 4)]).toEqual([255, 0, 0, 255]);
    const untouched = (20 * 40 + 30) * 4;
    expect(diff.data[untouched + 1]).toBeGreaterThan(200);
  });

  it('answers images of different sizes with a mismatch, counting what only one has as changed', () => {
    const result = compareImages(image(40, 30), image(40, 50));
    expect(result).toMatchObject({sizeMismatch: true, baselineSize: {width: 40, height: 30}, currentSize: {width: 40, height: 50}, totalPixels: 2000, changedPixels: 800});
    const diff = PNG.sync.read(result.diffPng);
    expect([diff.width, diff.height]).toEqual([40, 50]);
  });

  it('refuses bytes that are no PNG with a clear error', () => {
    expect(() => compareImages(Buffer.from('not a png'), image(4, 4))).toThrow(/the baseline is not a readable PNG.*take a new baseline/);
  });
});
