import {formatRow, formatToolDetail} from '../../agent/loop/transcript-text.js';
import type {AgentEvent} from '../../agent/types.js';
import {toTerminalText} from '../../text/terminal-safe.js';

// Lines of a tool row's detail (a diff, a command's output) shown under it.
const DETAIL_LINES = 20;

/**
 * Prints a transcript as it happens, for `workbench agent` and `workbench acp`: streamed text the
 * moment it arrives, each row as the lines every face shows (formatRow), errors and the agent's
 * log on stderr; or, with --json, one JSON line per row (the same objects, no streamed pieces).
 * Text from outside is made safe for the terminal; --json keeps it as it came.
 */
export class TranscriptPrinter {
  /** An error row other than a cancel was printed: the command exits 1. */
  failed = false;
  /** Text streamed since the last row: the text or answer row that closes it is already on screen. */
  private streamed = false;
  /** The cursor is not at the start of a line. */
  private midLine = false;
  /** Output held while the user answers a question, so nothing runs through it. */
  private held: Array<() => void> | undefined;
  private readonly stdout: NodeJS.WritableStream;
  private readonly stderr: NodeJS.WritableStream;

  constructor(private readonly options: {json: boolean; stdout?: NodeJS.WritableStream; stderr?: NodeJS.WritableStream}) {
    this.stdout = options.stdout ?? process.stdout;
    this.stderr = options.stderr ?? process.stderr;
  }

  event(event: AgentEvent): void {
    if (event.type === 'delta') {
      if (this.options.json || !event.text) return;
      this.streamed = true;
      this.write(this.stdout, toTerminalText(event.text));
      return;
    }
    const row = event.row;
    if (row.kind === 'error' && row.code !== 'cancelled') this.failed = true;
    if (this.options.json) return this.write(this.stdout, JSON.stringify(row) + '\n');
    const streamed = this.streamed;
    this.streamed = false;
    this.breakLine();
    if ((row.kind === 'text' || row.kind === 'answer') && streamed) return;
    const target = row.kind === 'error' || row.kind === 'agent-log' ? this.stderr : this.stdout;
    const lines = formatRow(row);
    if (row.kind === 'tool') {
      const detail = formatToolDetail(row);
      lines.push(...detail.slice(0, DETAIL_LINES).map((line) => `    ${line}`));
      if (detail.length > DETAIL_LINES) lines.push(`    … ${detail.length - DETAIL_LINES} more lines`);
    }
    this.write(target, lines.map((line) => line + '\n').join(''));
  }

  /** Ends a streamed line, so what comes next (a row, a question) starts on its own line. */
  breakLine(): void {
    if (this.midLine) this.write(this.stdout, '\n');
  }

  /** Holds output while `question` waits for the user, then writes what came meanwhile. */
  async pause<T>(question: () => Promise<T>): Promise<T> {
    this.breakLine();
    this.held = [];
    try {
      return await question();
    } finally {
      const held = this.held;
      this.held = undefined;
      for (const write of held) write();
    }
  }

  /** Resolves once everything written has been handed to the OS (a pipe loses nothing at exit). */
  flush(): Promise<void> {
    this.breakLine();
    return new Promise((resolve) => this.stdout.write('', () => resolve()));
  }

  private write(stream: NodeJS.WritableStream, text: string): void {
    if (!text) return;
    if (this.held) {
      this.held.push(() => this.write(stream, text));
      return;
    }
    if (stream === this.stdout) this.midLine = !text.endsWith('\n');
    stream.write(text);
  }
}
