import {constants} from 'node:fs';
import {open, type FileHandle} from 'node:fs/promises';
import {fileURLToPath} from 'node:url';
import {WorkbenchError} from '../../core/errors.js';
import {formatBytes} from '../../net/http-client.js';
import {DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS} from '../fetcher/limits.js';

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

// The fetcher's limits (Miniflux's): 20 s per fetch, 15 MB per body, for files too.
const TIMEOUT_MS = DEFAULT_TIMEOUT_MS;
const MAX_BYTES = DEFAULT_MAX_BYTES;

/**
 * Reads a file, or fetches an http(s) URL with the reader's own fetcher, for `workbench feeds
 * parse`: the same limits (20 s, 15 MB) for both, so /dev/zero, a FIFO or a huge file is a clear
 * error, never a hang or an out-of-memory crash.
 */
export async function readFeedSource(target: string, limits: SourceLimits = {}): Promise<FeedSource> {
  const maxBytes = limits.maxBytes ?? MAX_BYTES;
  if (/^https?:\/\//i.test(target)) return fetchSource(target, limits.timeoutMs ?? TIMEOUT_MS, maxBytes);
  const timeoutMs = limits.timeoutMs ?? TIMEOUT_MS;
  if (/^file:/i.test(target)) return readSource(fileURLToPath(target), maxBytes, timeoutMs);
  if (/^[a-z][a-z0-9+.-]+:\/\//i.test(target)) throw new WorkbenchError('invalid_argument', `not a file or an http(s) URL: ${target}`);
  return readSource(target, maxBytes, timeoutMs);
}

/**
 * Reads a file as the network path reads a body: at most maxBytes, within timeoutMs. Opened
 * non-blocking, so a FIFO without a writer ends at once instead of hanging in open(), a pipe that
 * stalls runs into the deadline, and /dev/zero or a huge file stops at the cap instead of
 * filling memory.
 */
async function readSource(path: string, maxBytes: number, timeoutMs: number): Promise<FeedSource> {
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new WorkbenchError('not_found', `no such file: ${path}`);
    throw new WorkbenchError('invalid_argument', `cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory()) throw new WorkbenchError('invalid_argument', `${path} is a directory, not a feed file`);
    if (info.isFile() && info.size > maxBytes) throw tooLarge(path, maxBytes);
    return {body: await readCapped(handle, path, maxBytes, timeoutMs), contentType: null};
  } catch (error) {
    if (error instanceof WorkbenchError) throw error;
    throw new WorkbenchError('invalid_argument', `cannot read ${path}: ${(error as Error).message}`);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

async function readCapped(handle: FileHandle, path: string, maxBytes: number, timeoutMs: number): Promise<Buffer> {
  const deadline = Date.now() + timeoutMs;
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.alloc(Math.min(1024 * 1024, maxBytes + 1 - total));
    let bytesRead: number;
    try {
      ({bytesRead} = await handle.read(chunk, 0, chunk.length, null));
    } catch (error) {
      // A pipe or terminal with nothing to read yet: wait a little, within the deadline.
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      if (Date.now() >= deadline) throw new WorkbenchError('invalid_argument', `${path} sent no end of data within ${Math.round(timeoutMs / 100) / 10} s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      continue;
    }
    if (bytesRead === 0) break;
    total += bytesRead;
    if (total > maxBytes) throw tooLarge(path, maxBytes);
    chunks.push(chunk.subarray(0, bytesRead));
    if (Date.now() >= deadline) throw new WorkbenchError('invalid_argument', `${path} sent no end of data within ${Math.round(timeoutMs / 100) / 10} s`);
  }
  return Buffer.concat(chunks, total);
}

function tooLarge(path: string, maxBytes: number): WorkbenchError {
  return new WorkbenchError('payload_too_large', `${path} is larger than ${formatBytes(maxBytes)}, the cap on a feed`, {maxBytes});
}

async function fetchSource(url: string, timeoutMs: number, maxBytes: number): Promise<FeedSource> {
  const {fetchFeed} = await import('../fetcher/index.js');
  const fetched = await fetchFeed(url, {timeoutMs, maxBytes});
  return {body: fetched.body, contentType: fetched.contentType, url: fetched.finalUrl};
}
