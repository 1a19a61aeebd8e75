import {readFile, stat} from 'node:fs/promises';
import {fileURLToPath} from 'node:url';
import {WorkbenchError} from '../../core/errors.js';

/** A feed body as `workbench feeds parse` reads it, before parsing. */
export interface FeedSource {
  body: Buffer;
  contentType: string | null;
  /** The URL after redirects (relative links resolve against it); undefined for files. */
  url?: string;
}

export interface SourceLimits {
  timeoutMs?: number;
  maxBytes?: number;
}

// Miniflux's limits: 20 s per fetch, 15 MB per body.
const TIMEOUT_MS = 20_000;
const MAX_BYTES = 15 * 1024 * 1024;

/**
 * Reads a file, or fetches an http(s) URL with the reader's own fetcher (same limits, redirects
 * and errors), for `workbench feeds parse`.
 */
export async function readFeedSource(target: string, limits: SourceLimits = {}): Promise<FeedSource> {
  const maxBytes = limits.maxBytes ?? MAX_BYTES;
  if (/^https?:\/\//i.test(target)) return fetchSource(target, limits.timeoutMs ?? TIMEOUT_MS, maxBytes);
  if (/^file:/i.test(target)) return readSource(fileURLToPath(target), maxBytes);
  if (/^[a-z][a-z0-9+.-]+:\/\//i.test(target)) throw new WorkbenchError('invalid_argument', `not a file or an http(s) URL: ${target}`);
  return readSource(target, maxBytes);
}

async function readSource(path: string, maxBytes: number): Promise<FeedSource> {
  let size: number;
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw new WorkbenchError('invalid_argument', `${path} is a directory, not a feed file`);
    size = info.size;
  } catch (error) {
    if (error instanceof WorkbenchError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new WorkbenchError('not_found', `no such file: ${path}`);
    throw new WorkbenchError('invalid_argument', `cannot read ${path}: ${(error as Error).message}`);
  }
  if (size > maxBytes) throw new WorkbenchError('payload_too_large', `${path} is ${size} bytes; feeds are capped at ${maxBytes}`);
  return {body: await readFile(path), contentType: null};
}

async function fetchSource(url: string, timeoutMs: number, maxBytes: number): Promise<FeedSource> {
  const {fetchFeed} = await import('../fetcher/index.js');
  const fetched = await fetchFeed(url, {timeoutMs, maxBytes});
  return {body: fetched.body, contentType: fetched.contentType, url: fetched.finalUrl};
}
