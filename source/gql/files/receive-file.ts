import {randomUUID} from 'node:crypto';
import type {Readable} from 'node:stream';
import {describeError} from '../../core/errors.js';
import {displayName} from './file-name.js';
import {checkedBody} from './sniff.js';
import {StagedFile} from './staged-file.js';
import {openStorage} from './storage/open-storage.js';
import type {PendingFile} from './storage/storage.js';
import {StorageUnavailable, UploadRefused} from './upload-refused.js';
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
  let pending: PendingFile;
  try {
    // The first bytes decide the type (and may refuse the file) before the storage is told anything.
    await checked.decided;
    pending = await storage.put(key, checked.body, checked.type());
  } catch (error) {
    checked.body.destroy();
    if (error instanceof UploadRefused) throw error;
    if (part.file.errored || (part.file.destroyed && !part.file.readableEnded)) throw new UploadRefused(400, 'the request ended before the file did');
    throw new StorageUnavailable(`the file storage (${storage.description}) failed: ${describeError(error)}`);
  }
  return new StagedFile(target.table, target.column, storage, key, checked.type(), displayName(part.filename), checked.size(), pending);
}
