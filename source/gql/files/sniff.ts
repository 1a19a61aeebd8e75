import {fileTypeFromBuffer} from 'file-type';
import type {Readable} from 'node:stream';
import {accepted} from './storage-config.js';
import {UploadRefused} from './upload-refused.js';

/** What file-type reads its verdict from (its own sample size). */
const SAMPLE_BYTES = 4100;

export interface CheckedBody {
  /** The bytes, checked as they pass: cut with an UploadRefused past `maxSize` or when text turns out not to be. */
  body: AsyncGenerator<Buffer>;
  /** The type sniffed from the first bytes, once they have passed. */
  type(): string;
  /** Bytes passed so far. */
  size(): number;
}

/**
 * The upload's bytes, checked while they stream: at most `maxSize` (the stream is cut at the
 * first byte over), the type sniffed from the first 4100 bytes by file-type — never the type the
 * client declared — and refused when `accept` does not let it in. Bytes file-type does not know
 * are `text/plain` when they are UTF-8 without NUL (checked to the last byte), else
 * `application/octet-stream`.
 */
export function checkedBody(source: Readable, limits: {maxSize: number; accept?: string[]; declaredType?: string}): CheckedBody {
  let sniffed: string | undefined;
  let text: TextDecoder | undefined;
  let size = 0;
  const checkText = (chunk: Buffer, final: boolean) => {
    if (!text) return;
    try {
      if (chunk.includes(0)) throw new Error('NUL');
      text.decode(chunk, {stream: !final});
    } catch {
      throw new UploadRefused(415, 'the file looked like text at its start but is not UTF-8 text (a NUL or an invalid byte further on): refused');
    }
  };
  const decide = async (head: Buffer) => {
    const found = await fileTypeFromBuffer(head);
    if (found) sniffed = found.mime;
    else {
      text = new TextDecoder('utf-8', {fatal: true});
      try {
        checkText(head, false);
        sniffed = 'text/plain';
      } catch {
        text = undefined;
        sniffed = 'application/octet-stream';
      }
    }
    if (!accepted(limits.accept, sniffed)) {
      const declared = limits.declaredType && limits.declaredType !== sniffed ? ` (declared ${limits.declaredType})` : '';
      throw new UploadRefused(415, `the file is ${sniffed}${declared}, which this column does not accept (accept: ${limits.accept!.join(', ')})`);
    }
  };
  async function* body(): AsyncGenerator<Buffer> {
    let head: Buffer[] = [];
    let headBytes = 0;
    for await (const chunk of source as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limits.maxSize) throw new UploadRefused(413, `the file is larger than this column's max-size of ${limits.maxSize} bytes`);
      if (sniffed === undefined) {
        head.push(chunk);
        headBytes += chunk.length;
        if (headBytes < SAMPLE_BYTES) continue;
        const joined = Buffer.concat(head);
        head = [];
        // The verdict is the sample's (what arrived at once may be more); text is checked on to the end.
        await decide(joined.subarray(0, SAMPLE_BYTES));
        checkText(joined.subarray(SAMPLE_BYTES), false);
        yield joined;
        continue;
      }
      checkText(chunk, false);
      yield chunk;
    }
    if (sniffed === undefined) {
      const joined = Buffer.concat(head);
      await decide(joined);
      if (joined.length > 0) yield joined;
    }
    checkText(Buffer.alloc(0), true);
  }
  return {body: body(), type: () => sniffed ?? 'application/octet-stream', size: () => size};
}
