import {randomBytes} from 'node:crypto';
import {createReadStream, createWriteStream} from 'node:fs';
import {mkdir, rename, rm, stat} from 'node:fs/promises';
import {join} from 'node:path';
import type {Readable} from 'node:stream';
import {pipeline} from 'node:stream/promises';
import {isStorageKey, type ByteRange, type FileStorage, type PendingFile, type StoredFile} from './storage.js';

/**
 * Files in a directory, one per key. An upload is written to `.tmp/<key>.<random>` in the same
 * directory (same file system: the rename is atomic) and renamed to `<key>` on commit, so a
 * reader never sees a partial file and a failed upload leaves only a temp file it then removes.
 */
export function diskStorage(dir: string): FileStorage {
  const tmpDir = join(dir, '.tmp');
  // A key names a file in `dir`, never a path: ours are random hex, but a column may hold anything
  // another program wrote (`../../etc/passwd`), and the download route reads what the row says.
  const pathOf = (key: string): string => {
    if (!isStorageKey(key)) throw new Error(`not a storage key: ${JSON.stringify(key.slice(0, 40))}`);
    return join(dir, key);
  };
  return {
    description: `disk ${dir}`,
    async put(key: string, body: Readable): Promise<PendingFile> {
      const target = pathOf(key);
      await mkdir(tmpDir, {recursive: true});
      const tmp = join(tmpDir, `${key}.${randomBytes(6).toString('hex')}`);
      // A write in flight while the next chunks gather (written together): the socket keeps flowing.
      const out = createWriteStream(tmp, {flags: 'wx', highWaterMark: 1024 * 1024});
      try {
        await pipeline(body, out);
      } catch (error) {
        await rm(tmp, {force: true});
        throw error;
      }
      return {
        commit: () => rename(tmp, target),
        discard: () => rm(tmp, {force: true}),
      };
    },
    async stat(key: string): Promise<StoredFile | undefined> {
      try {
        if (!isStorageKey(key)) return undefined;
        const info = await stat(pathOf(key));
        return info.isFile() ? {size: info.size} : undefined;
      } catch {
        return undefined;
      }
    },
    async read(key: string, range?: ByteRange): Promise<Readable> {
      return createReadStream(pathOf(key), range ? {start: range.start, end: range.end} : {});
    },
    delete: async (key: string) => {
      if (isStorageKey(key)) await rm(pathOf(key), {force: true});
    },
  };
}
