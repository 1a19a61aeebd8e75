import {randomUUID} from 'node:crypto';
import {Readable} from 'node:stream';
import {displayName} from './file-name.js';
import {checkedBody} from './sniff.js';
import {StagedFile} from './staged-file.js';
import {openStorage} from './storage/open-storage.js';
import type {UploadTarget} from './upload-targets.js';

export interface IncomingFile {
  file: Readable;
  filename?: string;
  mimetype?: string;
}

/**
 * Streams one file part into its column's storage under a new random key: checked as it passes
 * (sniff.ts: size, type), never held whole. Refused or broken midway, nothing of it is left.
 */
export async function receiveFile(part: IncomingFile, target: UploadTarget): Promise<StagedFile> {
  const {file} = target.column;
  const storage = openStorage(file.storage);
  const key = randomUUID().replaceAll('-', '');
  const checked = checkedBody(part.file, {maxSize: file.maxSize, ...(file.accept ? {accept: file.accept} : {}), ...(part.mimetype ? {declaredType: part.mimetype} : {})});
  // The first bytes decide the type (and may refuse the file) before the storage is told anything.
  const first = await checked.body.next();
  async function* all(): AsyncGenerator<Buffer> {
    if (!first.done) yield first.value;
    yield* checked.body;
  }
  const pending = await storage.put(key, Readable.from(all(), {objectMode: false, highWaterMark: 256 * 1024}), checked.type());
  return new StagedFile(target.table, target.column, storage, key, checked.type(), displayName(part.filename), checked.size(), pending);
}
