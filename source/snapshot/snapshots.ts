import {readFileSync} from 'node:fs';
import {WorkbenchError} from '../core/errors.js';
import {workbenchHome} from '../core/paths.js';
import {capturePage, type Capture, type CaptureOptions, type Viewport} from './capture.js';
import {compareImages, type ImageSize} from './compare.js';
import {DEFAULT_THRESHOLD, DEFAULT_TIMEOUT_S, DEFAULT_VIEWPORT} from './defaults.js';
import {checkSnapshotName} from './name.js';
import {checkPageUrl} from './page-url.js';
import {listMetas, readMeta, removeSnapshot, saveBaseline, saveComparison, snapshotFiles, type SnapshotMeta} from './store.js';

export interface CaptureRequest {
  name?: string;
  url?: string;
  /** Viewport width and height; a baseline defaults to 1280×800, a comparison to its baseline's. */
  width?: number;
  height?: number;
  full_page?: boolean;
  /** Seconds the whole capture may take. */
  timeout?: number;
  home?: string;
}

export interface CompareRequest extends CaptureRequest {
  /** The largest changed-pixel ratio that still passes (0 to 1). */
  threshold?: number;
}

/**
 * How a capture reports its steps and hears a cancel (a tool call's): progress `step` of
 * CAPTURE_STEPS — browser start, page load, photograph, then storing or comparing; the last
 * step reached is CAPTURE_STEPS itself.
 */
export interface CaptureCall {
  signal?: AbortSignal;
  step?: (step: number, total: number, message: string) => void;
}

export const CAPTURE_STEPS = 4;

/** The capture of `options`, its steps told to `call`; a cancel after it stores nothing. */
async function captureFor(options: Omit<CaptureOptions, 'onStep' | 'signal'>, call: CaptureCall): Promise<Capture> {
  const capture = await capturePage({...options, signal: call.signal, onStep: (step, message) => call.step?.(step, CAPTURE_STEPS, message)});
  if (call.signal?.aborted) throw new WorkbenchError('request_timeout', 'the capture was cancelled');
  return capture;
}

export interface BaselineResult {
  snapshot: SnapshotMeta;
  baseline_path: string;
  /** Requests the address policy refused while the page loaded. */
  refused: string[];
}

export interface CompareResult {
  name: string;
  url: string;
  threshold: number;
  ratio: number;
  changed_pixels: number;
  total_pixels: number;
  passed: boolean;
  size_mismatch: boolean;
  baseline_size: ImageSize;
  current_size: ImageSize;
  baseline_path: string;
  current_path: string;
  diff_path: string;
  compared_at: string;
  refused: string[];
}

/** Captures `url` and stores it as the baseline `name` (replacing an older one). */
export async function takeBaseline(request: CaptureRequest, call: CaptureCall = {}): Promise<BaselineResult> {
  const name = checkSnapshotName(request.name, 'baseline');
  if (!request.url)
    throw new WorkbenchError(
      'invalid_argument',
      `snapshot baseline needs the url of the page (or a page open through a dev proxy), e.g. {"action": "baseline", "name": "${name}", "url": "http://127.0.0.1:3000/"}`,
    );
  const url = await checkPageUrl(request.url);
  const viewport = {width: request.width ?? DEFAULT_VIEWPORT.width, height: request.height ?? DEFAULT_VIEWPORT.height};
  const fullPage = request.full_page ?? false;
  const capture = await captureFor({url, viewport, fullPage, timeoutMs: (request.timeout ?? DEFAULT_TIMEOUT_S) * 1000}, call);
  call.step?.(3, CAPTURE_STEPS, 'storing the baseline');
  const meta: SnapshotMeta = {
    name,
    url: url.href,
    viewport,
    full_page: fullPage,
    image: pngSize(capture.png),
    bytes: capture.png.length,
    created_at: new Date().toISOString(),
    status: capture.status,
    title: capture.title,
  };
  const files = saveBaseline(meta, capture.png, request.home ?? workbenchHome());
  call.step?.(CAPTURE_STEPS, CAPTURE_STEPS, 'stored');
  return {snapshot: meta, baseline_path: files.baseline, refused: capture.refused};
}

/**
 * Captures the page again (the baseline's URL and viewport unless given) and compares it with the
 * baseline: the changed-pixel ratio, pass or fail against `threshold`, and a diff image on disk.
 */
export async function compareSnapshot(request: CompareRequest, call: CaptureCall = {}): Promise<CompareResult> {
  const name = checkSnapshotName(request.name, 'compare');
  const home = request.home ?? workbenchHome();
  const threshold = request.threshold ?? DEFAULT_THRESHOLD;
  if (!(threshold >= 0 && threshold <= 1)) throw new WorkbenchError('invalid_argument', `threshold must be between 0 and 1 (a ratio of changed pixels), not ${threshold}`);
  const meta = readMeta(name, home);
  if (!meta) throw new WorkbenchError('not_found', `no baseline named "${name}": take one first, e.g. workbench snapshot baseline ${name} --url http://127.0.0.1:3000/`);
  const url = await checkPageUrl(request.url ?? meta.url);
  const viewport: Viewport = {width: request.width ?? meta.viewport.width, height: request.height ?? meta.viewport.height};
  const capture = await captureFor({url, viewport, fullPage: request.full_page ?? meta.full_page, timeoutMs: (request.timeout ?? DEFAULT_TIMEOUT_S) * 1000}, call);
  call.step?.(3, CAPTURE_STEPS, 'comparing with the baseline');
  const files = snapshotFiles(name, home);
  const comparison = compareImages(readFileSync(files.baseline), capture.png);
  const comparedAt = new Date().toISOString();
  const passed = !comparison.sizeMismatch && comparison.ratio <= threshold;
  saveComparison(
    {
      ...meta,
      last_compare: {
        compared_at: comparedAt,
        url: url.href,
        threshold,
        ratio: comparison.ratio,
        changed_pixels: comparison.changedPixels,
        passed,
        size_mismatch: comparison.sizeMismatch,
      },
    },
    capture.png,
    comparison.diffPng,
    home,
  );
  call.step?.(CAPTURE_STEPS, CAPTURE_STEPS, passed ? 'passed' : 'failed');
  return {
    name,
    url: url.href,
    threshold,
    ratio: comparison.ratio,
    changed_pixels: comparison.changedPixels,
    total_pixels: comparison.totalPixels,
    passed,
    size_mismatch: comparison.sizeMismatch,
    baseline_size: comparison.baselineSize,
    current_size: comparison.currentSize,
    baseline_path: files.baseline,
    current_path: files.current,
    diff_path: files.diff,
    compared_at: comparedAt,
    refused: capture.refused,
  };
}

export interface ListedSnapshot extends SnapshotMeta {
  baseline_path: string;
}

export function listSnapshots(home = workbenchHome()): ListedSnapshot[] {
  return listMetas(home).map((meta) => ({...meta, baseline_path: snapshotFiles(meta.name, home).baseline}));
}

/** Deletes a snapshot's baseline, meta and last comparison. */
export function deleteSnapshot(name: string | undefined, home = workbenchHome()): {name: string} {
  const checked = checkSnapshotName(name, 'delete');
  if (!removeSnapshot(checked, home)) throw new WorkbenchError('not_found', `no snapshot named "${checked}" (workbench snapshot list shows them)`);
  return {name: checked};
}

// A PNG's size is in its IHDR chunk, bytes 16–23: no need to decode the whole image for it.
function pngSize(png: Buffer): ImageSize {
  return {width: png.readUInt32BE(16), height: png.readUInt32BE(20)};
}
