import {closeSync, fchmodSync, fstatSync, ftruncateSync, openSync, writeSync} from 'node:fs';
import {dirname} from 'node:path';
import {ensureDirectory} from './paths.js';

const DISK_FULL = new Set(['ENOSPC', 'EDQUOT']);

export interface LogSinkOptions {
  /** Said once each time lines start being dropped (the file itself cannot say it). */
  onDropping?: (reason: string) => void;
  /** The line written first once the file takes lines again, saying how many were lost and why. */
  gapLine?: (dropped: number, reason: string) => string;
}

/**
 * A log file that never takes its process down. A full disk (or any failing write) drops the
 * line, counts it (`dropped`, on /metrics) and the next line tries again, so the log resumes by
 * itself once there is room; a node WriteStream, by contrast, emits an 'error' nobody can recover
 * from (unhandled, it ends the process) and writes nothing more. Each line is one writeSync —
 * pino's own default destination and node's stderr on a file are synchronous too, a line costs
 * ~0.6 µs, and nothing is left in a buffer when the process exits. A line the disk took only part
 * of is cut off again, so the file holds whole lines. Pino takes it as its destination stream.
 */
export class LogSink {
  /** Lines not written, since the sink was made. */
  dropped = 0;
  private gap = 0;
  private gapReason = '';
  private ended = false;

  private constructor(
    private readonly fd: number,
    private readonly owned: boolean,
    private readonly options: LogSinkOptions,
  ) {}

  /**
   * Opens `path` for appending: the file 0600 in a 0700 folder (logs name tokens and feeds),
   * tightened when it exists looser. Opening takes no room, so it succeeds on a full disk.
   */
  static open(path: string, options: LogSinkOptions = {}): LogSink {
    ensureDirectory(dirname(path));
    const fd = openSync(path, 'a', 0o600);
    try {
      if ((fstatSync(fd).mode & 0o077) !== 0) fchmodSync(fd, 0o600);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    return new LogSink(fd, true, options);
  }

  /** Writes to an fd someone else opened (the daemon's stderr); end() leaves it open. */
  static onFd(fd: number, options: LogSinkOptions = {}): LogSink {
    return new LogSink(fd, false, options);
  }

  get writableEnded(): boolean {
    return this.ended;
  }

  /** Appends `text` (whole lines); never throws. Always true: there is no buffer to wait on. */
  write(text: string | Uint8Array): boolean {
    if (this.ended) return true;
    // Room again? The line that says how many were lost goes first, in the same write: both or neither.
    const gap = this.gap > 0 && this.options.gapLine ? this.options.gapLine(this.gap, this.gapReason) : undefined;
    const failure = this.append(gap === undefined ? text : typeof text === 'string' ? gap + text : Buffer.concat([Buffer.from(gap), text]));
    if (failure === undefined) this.gap = 0;
    else {
      if (this.gap === 0) {
        this.gapReason = failure;
        this.options.onDropping?.(failure);
      }
      this.drop(text);
    }
    return true;
  }

  /** Closes the file (when the sink opened it); later lines are ignored. */
  end(callback?: () => void): void {
    if (!this.ended) {
      this.ended = true;
      if (this.owned) closeSync(this.fd);
    }
    callback?.();
  }

  private drop(text: string | Uint8Array): void {
    const lines = countLines(text);
    this.dropped += lines;
    this.gap += lines;
  }

  /** Undefined when all of `text` is in the file; else why not. */
  private append(text: string | Uint8Array): string | undefined {
    const bytes = typeof text === 'string' ? undefined : text;
    const length = bytes ? bytes.byteLength : Buffer.byteLength(text as string);
    let written = 0;
    try {
      written = bytes ? writeSync(this.fd, bytes) : writeSync(this.fd, text as string);
      if (written < length) {
        const rest = bytes ?? Buffer.from(text as string);
        while (written < length) written += writeSync(this.fd, rest, written, length - written);
      }
      return undefined;
    } catch (error) {
      // The disk took part of the line: take it back (the file is opened for appending, so it ends with it).
      if (written > 0) {
        try {
          ftruncateSync(this.fd, fstatSync(this.fd).size - written);
        } catch {
          // Nothing more to be done; the next line starts after the fragment.
        }
      }
      const code = (error as NodeJS.ErrnoException).code;
      return code !== undefined && DISK_FULL.has(code) ? 'the disk is full' : (code ?? String(error));
    }
  }
}

function countLines(text: string | Uint8Array): number {
  let lines = 0;
  if (typeof text === 'string') {
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  } else {
    for (const byte of text) if (byte === 10) lines++;
  }
  // A fragment without its newline is a line lost too.
  return Math.max(lines, 1);
}
