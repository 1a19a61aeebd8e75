import {brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync} from 'node:zlib';

// A page is buffered whole to inject into it; one this large or larger passes through untouched.
export const MAX_DECODED_PAGE = 32 * 1024 * 1024;

/**
 * A whole body decoded from its Content-Encoding; undefined for a coding we do not know or a body
 * that does not decode (the response then passes through as the target sent it).
 */
export function decodeContent(body: Buffer, contentEncoding: string | undefined): Buffer | undefined {
  const coding = contentEncoding?.trim().toLowerCase() ?? '';
  const options = {maxOutputLength: MAX_DECODED_PAGE};
  try {
    switch (coding) {
      case '':
      case 'identity':
        return body;
      case 'gzip':
      case 'x-gzip':
        return gunzipSync(body, options);
      case 'br':
        return brotliDecompressSync(body, options);
      case 'deflate':
        // "deflate" is meant to be zlib-wrapped; some servers send it raw.
        try {
          return inflateSync(body, options);
        } catch {
          return inflateRawSync(body, options);
        }
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}
