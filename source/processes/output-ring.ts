import {StringDecoder} from 'node:string_decoder';
import type {LineMatcher} from './user-pattern.js';

/**
 * Bounded output of one process: the newest `capacity` bytes (roughly; counted in UTF-16 units)
 * kept as a list of chunks, so a process printing 100 MB holds a few hundred KB at most.
 */
export class OutputRing {
  private chunks: string[] = [];
  private size = 0;
  private total = 0;
  private readonly decoder = new StringDecoder('utf8');

  constructor(private readonly capacity = 512 * 1024) {}

  /** Bytes seen since the start, dropped ones included. */
  get totalBytes(): number {
    return this.total;
  }

  get heldChars(): number {
    return this.size;
  }

  /** Keeps the chunk and returns it as text (a UTF-8 sequence split across chunks is completed by the next one). */
  write(data: Buffer | string): string {
    this.total += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    // The decoder keeps a split UTF-8 sequence for the next chunk; invalid bytes become U+FFFD.
    const decoded = typeof data === 'string' ? data : this.decoder.write(data);
    let text = decoded;
    if (text.length === 0) return decoded;
    if (text.length > this.capacity) text = text.slice(text.length - this.capacity);
    this.chunks.push(text);
    this.size += text.length;
    while (this.size > this.capacity && this.chunks.length > 1) {
      const head = this.chunks[0];
      const excess = this.size - this.capacity;
      if (head.length <= excess) {
        this.chunks.shift();
        this.size -= head.length;
      } else {
        this.chunks[0] = head.slice(excess);
        this.size -= excess;
      }
    }
    // Many tiny chunks cost memory per entry: fold them now and then.
    if (this.chunks.length > 2048) this.chunks = [this.chunks.join('')];
    return decoded;
  }

  /**
   * A line of workbench's own between runs, e.g. `── restarted at 12:01:02 (run 2) ──`, on a
   * line of its own, so the previous run's output stays readable above it.
   */
  mark(label: string): void {
    const held = this.text();
    const newline = held === '' || held.endsWith('\n') ? '' : '\r\n';
    this.write(`${newline}── ${label} ──\r\n`);
  }

  text(): string {
    if (this.chunks.length > 1) this.chunks = [this.chunks.join('')];
    return this.chunks[0] ?? '';
  }

  clear(): void {
    this.chunks = [];
    this.size = 0;
  }
}

export interface OutputSelection {
  /** Last N lines only. */
  tail?: number;
  /** Keep lines matching this pattern (tested on ANSI-stripped text); a user's goes through `compileUserPattern`. */
  grep?: LineMatcher;
  /** Drop ANSI escapes (for scripts and matching); the TUI keeps them. */
  stripAnsi?: (text: string) => string;
}

/** Selects lines of a ring's text: grep first, then tail. */
export function selectOutput(text: string, selection: OutputSelection): string {
  const {tail, grep, stripAnsi} = selection;
  if (!grep && tail === undefined && !stripAnsi) return text;
  let lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  if (stripAnsi) lines = lines.map(stripAnsi);
  if (grep) lines = lines.filter((line) => grep.test(stripAnsi ? line : line.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')));
  if (tail !== undefined) lines = tail === 0 ? [] : lines.slice(-tail);
  return lines.length ? lines.join('\n') + '\n' : '';
}
