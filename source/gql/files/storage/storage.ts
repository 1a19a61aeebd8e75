import type {Readable} from 'node:stream';

/** Bytes written but not yet referenced by a committed row: `commit` makes them the key's, `discard` removes them. */
export interface PendingFile {
  commit(): Promise<void>;
  discard(): Promise<void>;
}

export interface StoredFile {
  size: number;
  /** What the storage keeps of the type (S3's Content-Type), if anything. */
  contentType?: string;
}

/** An inclusive byte range. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where a file column's bytes live. Keys are random ids made by the upload (never a client's
 * file name), so a key names one upload's bytes and nothing else.
 */
export interface FileStorage {
  /** For messages: `disk /srv/files`, `s3 bucket/prefix at http://…` (never credentials). */
  readonly description: string;
  /** Streams `body` in (never held whole); rejects, leaving nothing, when the body fails or is refused midway. */
  put(key: string, body: Readable, contentType: string): Promise<PendingFile>;
  stat(key: string): Promise<StoredFile | undefined>;
  read(key: string, range?: ByteRange): Promise<Readable>;
  delete(key: string): Promise<void>;
}

/** A storage key as uploads make them: 32 lower-case hex digits. Anything else never reaches a storage. */
export const STORAGE_KEY = /^[0-9a-f]{32}$/;

/**
 * A key names one object of its own: letters, digits, `.`, `_`, `-`, not starting with a dot (so
 * never `..` nor a path). Ours are random hex; a column may hold whatever another program wrote.
 */
export function isStorageKey(key: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/.test(key);
}
