import pixelmatch from 'pixelmatch';
import {PNG} from 'pngjs';
import {WorkbenchError} from '../core/errors.js';

export interface ImageSize {
  width: number;
  height: number;
}

export interface ImageComparison {
  /** Pixels that differ, counting every pixel only one of the images has. */
  changedPixels: number;
  /** Pixels of the larger canvas (both images laid over each other at the top left). */
  totalPixels: number;
  /** changedPixels / totalPixels, 0 to 1. */
  ratio: number;
  sizeMismatch: boolean;
  baselineSize: ImageSize;
  currentSize: ImageSize;
  /** The current image greyed out with changed pixels in red; what only one image has is red as a whole. */
  diffPng: Buffer;
}

// pixelmatch's per-pixel colour tolerance (its default): anti-aliasing and rounding are not changes.
const COLOUR_TOLERANCE = 0.1;
const RED = [255, 0, 0, 255] as const;

/**
 * Compares two PNGs pixel by pixel (pixelmatch). Images of different sizes (a taller page, another
 * viewport) are compared where they overlap; the rest counts as changed and the result says the
 * sizes differ, instead of failing.
 */
export function compareImages(baselinePng: Buffer, currentPng: Buffer): ImageComparison {
  const baseline = readPng(baselinePng, 'the baseline');
  const current = readPng(currentPng, 'the new capture');
  const width = Math.max(baseline.width, current.width);
  const height = Math.max(baseline.height, current.height);
  const overlap = {width: Math.min(baseline.width, current.width), height: Math.min(baseline.height, current.height)};
  const sizeMismatch = baseline.width !== current.width || baseline.height !== current.height;

  const overlapDiff = new PNG(overlap);
  const overlapChanged = pixelmatch(crop(baseline, overlap).data, crop(current, overlap).data, overlapDiff.data, overlap.width, overlap.height, {
    threshold: COLOUR_TOLERANCE,
  });

  const diff = new PNG({width, height});
  for (let offset = 0; offset < diff.data.length; offset += 4) diff.data.set(RED, offset);
  PNG.bitblt(overlapDiff, diff, 0, 0, overlap.width, overlap.height, 0, 0);

  const totalPixels = width * height;
  const changedPixels = overlapChanged + (totalPixels - overlap.width * overlap.height);
  return {
    changedPixels,
    totalPixels,
    ratio: totalPixels === 0 ? 0 : changedPixels / totalPixels,
    sizeMismatch,
    baselineSize: {width: baseline.width, height: baseline.height},
    currentSize: {width: current.width, height: current.height},
    diffPng: PNG.sync.write(diff),
  };
}

function readPng(bytes: Buffer, what: string): PNG {
  try {
    return PNG.sync.read(bytes);
  } catch (error) {
    throw new WorkbenchError('invalid_argument', `${what} is not a readable PNG (${(error as Error).message}); take a new baseline`);
  }
}

function crop(image: PNG, size: ImageSize): PNG {
  if (image.width === size.width && image.height === size.height) return image;
  const part = new PNG(size);
  PNG.bitblt(image, part, 0, 0, size.width, size.height, 0, 0);
  return part;
}
