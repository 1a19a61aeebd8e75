import {existsSync, readdirSync, readFileSync, rmSync} from 'node:fs';
import {join} from 'node:path';
import {writeFileAtomic} from '../core/atomic-write.js';
import {WorkbenchError} from '../core/errors.js';
import {ensureDirectory, workbenchHome} from '../core/paths.js';
import type {ImageSize} from './compare.js';
import type {Viewport} from './capture.js';

/** What `compare` found the last time, kept beside the baseline. */
export interface CompareSummary {
  compared_at: string;
  url: string;
  threshold: number;
  ratio: number;
  changed_pixels: number;
  passed: boolean;
  size_mismatch: boolean;
}

/** meta.json of a snapshot: how its baseline was taken. */
export interface SnapshotMeta {
  name: string;
  url: string;
  viewport: Viewport;
  full_page: boolean;
  /** Size of baseline.png (the whole page when full_page). */
  image: ImageSize;
  bytes: number;
  created_at: string;
  /** HTTP status of the page when the baseline was taken. */
  status: number | null;
  title: string;
  last_compare?: CompareSummary;
}

/** Where each file of a snapshot lives: WORKBENCH_HOME/snapshots/<name>/. */
export interface SnapshotFiles {
  dir: string;
  baseline: string;
  meta: string;
  current: string;
  diff: string;
}

export function snapshotsRoot(home = workbenchHome()): string {
  return join(home, 'snapshots');
}

/** The files of a snapshot; `name` must have passed checkSnapshotName. */
export function snapshotFiles(name: string, home = workbenchHome()): SnapshotFiles {
  const dir = join(snapshotsRoot(home), name);
  return {dir, baseline: join(dir, 'baseline.png'), meta: join(dir, 'meta.json'), current: join(dir, 'current.png'), diff: join(dir, 'diff.png')};
}

/** A snapshot's meta, or undefined when it has none (never taken, or taken half). */
export function readMeta(name: string, home = workbenchHome()): SnapshotMeta | undefined {
  const files = snapshotFiles(name, home);
  if (!existsSync(files.meta) || !existsSync(files.baseline)) return undefined;
  try {
    return JSON.parse(readFileSync(files.meta, 'utf8')) as SnapshotMeta;
  } catch (error) {
    throw new WorkbenchError('invalid_argument', `${files.meta} cannot be read (${(error as Error).message}); take the baseline again or delete the snapshot`);
  }
}

/**
 * Stores a new baseline, replacing an older one and the files of its last comparison. meta.json
 * is written last: a snapshot with a meta always has the baseline it describes.
 */
export function saveBaseline(meta: SnapshotMeta, png: Buffer, home = workbenchHome()): SnapshotFiles {
  const files = snapshotFiles(meta.name, home);
  ensureDirectory(files.dir);
  rmSync(files.current, {force: true});
  rmSync(files.diff, {force: true});
  writeFileAtomic(files.baseline, png);
  writeFileAtomic(files.meta, JSON.stringify(meta, null, 2) + '\n');
  return files;
}

/** Stores the latest comparison: the new capture, the diff image, and its summary in meta.json. */
export function saveComparison(meta: SnapshotMeta, currentPng: Buffer, diffPng: Buffer, home = workbenchHome()): SnapshotFiles {
  const files = snapshotFiles(meta.name, home);
  writeFileAtomic(files.current, currentPng);
  writeFileAtomic(files.diff, diffPng);
  writeFileAtomic(files.meta, JSON.stringify(meta, null, 2) + '\n');
  return files;
}

/** Every snapshot with a baseline, by name; folders without a readable meta are left out. */
export function listMetas(home = workbenchHome()): SnapshotMeta[] {
  const root = snapshotsRoot(home);
  if (!existsSync(root)) return [];
  const metas: SnapshotMeta[] = [];
  for (const entry of readdirSync(root, {withFileTypes: true})) {
    if (!entry.isDirectory()) continue;
    try {
      const meta = readMeta(entry.name, home);
      if (meta) metas.push(meta);
    } catch {
      // A damaged meta shows up as an error when that snapshot is used, not in every listing.
    }
  }
  return metas.sort((a, b) => a.name.localeCompare(b.name));
}

/** Removes a snapshot's folder; false when there was none. */
export function removeSnapshot(name: string, home = workbenchHome()): boolean {
  const {dir} = snapshotFiles(name, home);
  if (!existsSync(dir)) return false;
  rmSync(dir, {recursive: true, force: true});
  return true;
}
