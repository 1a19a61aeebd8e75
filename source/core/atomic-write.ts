import {closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync} from 'node:fs';
import {basename, dirname, join} from 'node:path';

export interface AtomicWriteOptions {
  /** Mode of a new file (default 0o600: workbench's files are the user's alone). */
  mode?: number;
  /** Writes the bytes to the open temp file; the default loops writeSync. Tests put a full disk here. */
  writeBytes?: (fd: number, bytes: Buffer) => void;
}

/**
 * Replaces `path` with `data` so that a reader sees the old file or the whole new one, never a
 * part: the bytes go to a temp name in the same folder (a rename across file systems is no
 * rename), are flushed to disk, then renamed over `path`. On any failure (a full disk, above all)
 * the temp file is removed and `path` is left as it was.
 */
export function writeFileAtomic(path: string, data: string | Buffer, options: AtomicWriteOptions = {}): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const fd = openSync(temp, 'wx', options.mode ?? 0o600);
  try {
    try {
      (options.writeBytes ?? writeAll)(fd, bytes);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, {force: true});
    throw error;
  }
}

function writeAll(fd: number, bytes: Buffer): void {
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}
