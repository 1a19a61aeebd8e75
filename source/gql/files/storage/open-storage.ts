import {isAbsolute, join} from 'node:path';
import {workbenchHome} from '../../../core/paths.js';
import type {FileStorageConfig} from '../../types.js';
import {diskStorage} from './disk-storage.js';
import {s3Storage} from './s3-storage.js';
import type {FileStorage} from './storage.js';

const opened = new Map<string, FileStorage>();

/** The storage a config names, opened once per process (an S3 client keeps its connections). */
export function openStorage(config: FileStorageConfig): FileStorage {
  const id = JSON.stringify(config) + (config.kind === 'disk' ? `@${workbenchHome()}` : '');
  let storage = opened.get(id);
  if (!storage) {
    storage = config.kind === 'disk' ? diskStorage(diskDir(config.dir)) : s3Storage(config);
    opened.set(id, storage);
  }
  return storage;
}

/** `disk:<dir>`: absolute as written, relative to WORKBENCH_HOME otherwise; plain `disk`: $WORKBENCH_HOME/gql-files. */
export function diskDir(dir: string | undefined): string {
  if (dir === undefined) return join(workbenchHome(), 'gql-files');
  return isAbsolute(dir) ? dir : join(workbenchHome(), dir);
}
