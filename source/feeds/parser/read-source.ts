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
const ACCEPT = 'application/rss+xml, application/atom+xml, application/feed+json, application/json;q=0.9, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.8';

/**
 * Reads a file or fetches an http(s) URL, within a time limit and a size cap. A one-shot read
 * for `workbench feeds parse`: the poller's fetcher (conditional GET, politeness) is
 * source/feeds/fetcher.
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
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(url, {signal, redirect: 'follow', headers: {accept: ACCEPT, 'user-agent': 'workbench-feeds'}});
    if (!response.ok) {
      await response.body?.cancel();
      throw new WorkbenchError('feed_unreachable', `HTTP ${response.status} from ${url}`);
    }
    const declared = Number(response.headers.get('content-length'));
    if (declared > maxBytes) {
      await response.body?.cancel();
      throw tooLarge(url, maxBytes);
    }
    const chunks: Buffer[] = [];
    let total = 0;
    if (response.body) {
      for await (const chunk of response.body) {
        total += chunk.length;
        if (total > maxBytes) throw tooLarge(url, maxBytes);
        chunks.push(Buffer.from(chunk));
      }
    }
    return {body: Buffer.concat(chunks, total), contentType: response.headers.get('content-type'), url: response.url || url};
  } catch (error) {
    if (error instanceof WorkbenchError) throw error;
    if (signal.aborted) throw new WorkbenchError('feed_unreachable', `${url} did not answer within ${Math.round(timeoutMs / 1000)} s`);
    const cause = (error as {cause?: {message?: string}}).cause?.message ?? (error as Error).message;
    throw new WorkbenchError('feed_unreachable', `cannot fetch ${url}: ${cause}`);
  }
}

function tooLarge(url: string, maxBytes: number): WorkbenchError {
  return new WorkbenchError('payload_too_large', `${url} sent more than ${maxBytes} bytes; feeds are capped there`);
}
