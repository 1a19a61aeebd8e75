import {Transform, type TransformCallback} from 'node:stream';
import {markBadProgressToken} from './progress-token.js';

/** The SDK's stdio limit: a longer message makes its transport close, and the server go deaf. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** The id of an oversized request, when it comes before the bulk (`{"jsonrpc":"2.0","id":7,...`). */
export function requestIdOf(head: string): number | string | undefined {
  const match = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,200}")/.exec(head);
  if (!match) return undefined;
  try {
    return JSON.parse(match[1]) as number | string;
  } catch {
    return undefined;
  }
}

/**
 * Sits between stdin and the MCP transport: complete lines of at most `limit` bytes pass; a longer
 * line is skipped up to its newline (never buffered) and reported with its first bytes, so the
 * server answers it with an error and keeps reading the next messages. A bad progress token is
 * marked on the way (progress-token.ts), so that its request is answered too.
 */
export class LineGuard extends Transform {
  private pending: Buffer[] = [];
  private size = 0;
  private skipping = false;
  private head = '';

  constructor(
    private readonly onOversize: (head: string, bytes: number) => void,
    private readonly limit = MAX_MESSAGE_BYTES,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(10, start);
      const end = newline === -1 ? chunk.length : newline + 1;
      const piece = chunk.subarray(start, end);
      if (!this.skipping && this.size + piece.length > this.limit) {
        this.skipping = true;
        this.head = Buffer.concat([...this.pending, piece.subarray(0, 4096)])
          .subarray(0, 4096)
          .toString('utf8');
        this.pending = [];
      }
      if (this.skipping) this.size += piece.length;
      else {
        this.pending.push(piece);
        this.size += piece.length;
      }
      if (newline !== -1) {
        if (this.skipping) this.onOversize(this.head, this.size);
        else this.push(markBadProgressToken(Buffer.concat(this.pending)));
        this.pending = [];
        this.size = 0;
        this.skipping = false;
        this.head = '';
      }
      start = end;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (!this.skipping && this.pending.length) this.push(markBadProgressToken(Buffer.concat(this.pending)));
    done();
  }
}
