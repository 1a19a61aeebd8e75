import {WorkbenchError} from '../../core/errors.js';

/** Miniflux's defaults: a slow or huge origin costs one worker 20 s and 15 MB at most. */
export const DEFAULT_TIMEOUT_MS = 20_000;
export const DEFAULT_MAX_BYTES = 15 * 1024 * 1024;
export const DEFAULT_MAX_REDIRECTS = 5;

/**
 * Reads a response body up to maxBytes (bytes after gzip/br decoding, so a compression bomb is
 * cut off too). Stops reading and cancels the stream as soon as the cap is crossed.
 */
export async function readCappedBody(response: Response, maxBytes: number, url: string): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length'));
  const encoded = response.headers.get('content-encoding');
  if (!encoded && Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(url, maxBytes);
  }
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const {done, value} = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(url, maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

function tooLarge(url: string, maxBytes: number): WorkbenchError {
  return new WorkbenchError('payload_too_large', `the response from ${url} is larger than ${formatBytes(maxBytes)}`, {url, maxBytes});
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${trimNumber(bytes / (1024 * 1024))} MB`;
  if (bytes >= 1024) return `${trimNumber(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

export function formatSeconds(ms: number): string {
  return `${trimNumber(ms / 1000)} s`;
}

function trimNumber(value: number): string {
  return String(Math.round(value * 100) / 100);
}
