/**
 * The daemon's wire format: one JSON object per line over a unix socket.
 * Requests carry an id and get exactly one response with that id; events carry no id and name
 * their topic in `event` (see `events.ts`).
 */
export interface Request {
  id: number;
  method: string;
  params?: unknown;
}

export interface ErrorBody {
  code: string;
  message: string;
}

export type Response = {id: number; result: unknown} | {id: number; error: ErrorBody};

/** Splits a byte stream into lines; a line longer than `limit` is a protocol error, not a memory leak. */
export class LineSplitter {
  private buffer = '';

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly limit = 16 * 1024 * 1024,
  ) {}

  push(chunk: string): void {
    this.buffer += chunk;
    if (this.buffer.length > this.limit && !this.buffer.includes('\n')) {
      this.buffer = '';
      throw new Error(`message longer than ${this.limit} bytes`);
    }
    let newline = this.buffer.indexOf('\n');
    while (newline >= 0) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      if (line.trim()) this.onLine(line);
      newline = this.buffer.indexOf('\n');
    }
  }
}
