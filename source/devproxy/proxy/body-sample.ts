import {constants, brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync} from 'node:zlib';

/** How much of each body the traffic log keeps. */
export const BODY_SAMPLE_BYTES = 2048;
// A compressed body is kept longer, so that its decoded start still fills the sample.
const COMPRESSED_SAMPLE_BYTES = 16 * 1024;
// A decompression bomb in a sample stops here.
const MAX_DECODED = 1024 * 1024;

const TEXT_TYPE = /^text\/|json|xml|javascript|ecmascript|x-www-form-urlencoded|graphql|yaml|csv/i;

/** Whether a body of this type is text worth keeping; a body without a type is judged by its bytes. */
export function isTextType(contentType: string | undefined): boolean {
  return contentType === undefined || contentType === '' || TEXT_TYPE.test(contentType);
}

/** The first bytes of a body as it streams past, and its whole length. */
export class BodySample {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  bytes = 0;
  private readonly limit: number;

  constructor(private readonly contentEncoding?: string) {
    this.limit = contentEncoding && contentEncoding !== 'identity' ? COMPRESSED_SAMPLE_BYTES : BODY_SAMPLE_BYTES;
  }

  add(chunk: Buffer): void {
    this.bytes += chunk.length;
    if (this.kept >= this.limit) return;
    // A copy: a slice would keep the whole socket chunk alive for as long as the log holds the entry.
    const part = Buffer.from(chunk.subarray(0, this.limit - this.kept));
    this.chunks.push(part);
    this.kept += part.length;
  }

  /** The sample as UTF-8 text, decoded when compressed; undefined when it is empty, binary or undecodable. */
  text(): string | undefined {
    if (this.kept === 0) return undefined;
    const raw = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    const decoded = decodePrefix(raw, this.contentEncoding);
    if (!decoded || decoded.subarray(0, 512).includes(0)) return undefined;
    return decoded.toString('utf8', 0, Math.min(decoded.length, BODY_SAMPLE_BYTES));
  }
}

/** The decoded start of a body whose end may be missing (a sample): zlib flushes what it has instead of failing. */
function decodePrefix(raw: Buffer, encoding: string | undefined): Buffer | undefined {
  try {
    switch (encoding?.trim().toLowerCase()) {
      case undefined:
      case '':
      case 'identity':
        return raw;
      case 'gzip':
      case 'x-gzip':
        return gunzipSync(raw, {finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: MAX_DECODED});
      case 'deflate':
        try {
          return inflateSync(raw, {finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: MAX_DECODED});
        } catch {
          return inflateRawSync(raw, {finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: MAX_DECODED});
        }
      case 'br':
        return brotliDecompressSync(raw, {finishFlush: constants.BROTLI_OPERATION_FLUSH, maxOutputLength: MAX_DECODED});
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}
