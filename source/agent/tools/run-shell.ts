/**
 * `run_shell`: a command line through the shell, in the workspace, with a timeout and an output
 * cap. The command runs in a process group of its own, so a timeout (or a cancelled turn) ends
 * everything it started, not just the shell. Output (stdout and stderr interleaved, as a terminal
 * shows them) is streamed and counted, never buffered whole: the model keeps the head and the tail
 * (where compilers and test runners put their verdict) and is told how much was cut from the
 * middle, so a command printing 50 MB costs 30 KB of memory and context.
 */
import {execa} from 'execa';
import {z} from 'zod';
import {toTerminalLine, toTerminalText} from '../../text/terminal-safe.js';
import type {AgentTool} from '../types.js';
import {jsonSchemaOf, parseToolInput} from './tool-input.js';

export const DEFAULT_SHELL_TIMEOUT_SECONDS = 120;
export const MAX_SHELL_TIMEOUT_SECONDS = 600;
/** Bytes of output kept: the first HEAD and the last TAIL. */
export const OUTPUT_HEAD_BYTES = 10_000;
export const OUTPUT_TAIL_BYTES = 20_000;
/** After the polite SIGTERM, how long the group has before SIGKILL. */
const KILL_GRACE_MS = 2000;

const input = z.strictObject({
  command: z.string().min(1).describe('The command line, run by /bin/sh in the workspace'),
  timeout_seconds: z
    .number()
    .positive()
    .max(MAX_SHELL_TIMEOUT_SECONDS)
    .optional()
    .describe(`Stop the command after this many seconds (default ${DEFAULT_SHELL_TIMEOUT_SECONDS}, at most ${MAX_SHELL_TIMEOUT_SECONDS})`),
});

export const runShellTool: AgentTool = {
  name: 'run_shell',
  description: `Run a shell command in the workspace (/bin/sh -c). Returns the exit code and the output (stdout and stderr together; long output keeps its first ${OUTPUT_HEAD_BYTES / 1000} KB and last ${OUTPUT_TAIL_BYTES / 1000} KB). No input is given to the command, so use non-interactive flags. Stopped after timeout_seconds (default ${DEFAULT_SHELL_TIMEOUT_SECONDS}).`,
  inputSchema: jsonSchemaOf(input),
  permission: 'shell',
  safeByDefault: false,
  argument(raw) {
    return parseToolInput('run_shell', input, raw).command;
  },
  async preview(raw) {
    return `$ ${parseToolInput('run_shell', input, raw).command}`;
  },
  async run(raw, context) {
    const args = parseToolInput('run_shell', input, raw);
    const seconds = args.timeout_seconds ?? DEFAULT_SHELL_TIMEOUT_SECONDS;
    const output = new CappedOutput(OUTPUT_HEAD_BYTES, OUTPUT_TAIL_BYTES);
    const subprocess = execa(args.command, {
      shell: true,
      cwd: context.cwd,
      stdin: 'ignore',
      all: true,
      buffer: false,
      // Its own process group: the timeout signals -pid, reaching every process the command started.
      detached: true,
      reject: false,
    });
    subprocess.all?.on('data', (chunk: Buffer | string) => output.add(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));

    let stopped: 'timeout' | 'cancelled' | undefined;
    const stop = (why: 'timeout' | 'cancelled') => {
      if (stopped || subprocess.pid === undefined) return;
      stopped = why;
      killGroup(subprocess.pid, 'SIGTERM');
      setTimeout(() => killGroup(subprocess.pid!, 'SIGKILL'), KILL_GRACE_MS).unref();
    };
    const timer = setTimeout(() => stop('timeout'), seconds * 1000);
    const onAbort = () => stop('cancelled');
    context.signal?.addEventListener('abort', onAbort, {once: true});
    if (context.signal?.aborted) onAbort();
    const result = await subprocess.finally(() => {
      clearTimeout(timer);
      context.signal?.removeEventListener('abort', onAbort);
    });

    const text = output.text();
    const command = oneLine(args.command);
    const shownSeconds = Number.isInteger(seconds) ? `${seconds}` : seconds.toFixed(1);
    let outcome: string;
    let summary: string;
    let error: string | undefined;
    if (stopped === 'timeout') {
      outcome = `timed out after ${shownSeconds} s (the command and everything it started were stopped)`;
      summary = `shell ${command} → timed out after ${shownSeconds} s`;
      error = `timed out after ${shownSeconds} s`;
    } else if (stopped === 'cancelled') {
      outcome = 'cancelled';
      summary = `shell ${command} → cancelled`;
      error = 'cancelled';
    } else if (result.exitCode === undefined && result.failed && !result.signal) {
      // The shell itself could not start (a missing cwd).
      outcome = `could not run: ${result.shortMessage ?? result.message}`;
      summary = `shell ${command} → could not run`;
      error = outcome;
    } else if (result.signal) {
      outcome = `killed by ${result.signal}`;
      summary = `shell ${command} → killed by ${result.signal}`;
    } else {
      outcome = `exit ${result.exitCode}`;
      summary = `shell ${command} → exit ${result.exitCode}`;
    }
    const content = `${text === '' ? '(no output)' : text}\n[${outcome}]`;
    return {
      content,
      isError: error !== undefined,
      row: {tool: 'run_shell', summary, detail: toTerminalText(text), exitCode: result.exitCode, ...(error ? {error} : {})},
    };
  },
};

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** The command for a one-line row: no line breaks or controls, at most 100 characters. */
function oneLine(command: string): string {
  const line = toTerminalLine(command).trim();
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}

/** Keeps the first `headBytes` and the last `tailBytes` of a stream and counts the rest. */
export class CappedOutput {
  private readonly head: Buffer[] = [];
  private headSize = 0;
  private tail: Buffer[] = [];
  private tailSize = 0;
  total = 0;

  constructor(
    private readonly headBytes: number,
    private readonly tailBytes: number,
  ) {}

  add(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.headSize < this.headBytes) {
      const take = chunk.subarray(0, this.headBytes - this.headSize);
      this.head.push(take);
      this.headSize += take.length;
      chunk = chunk.subarray(take.length);
      if (chunk.length === 0) return;
    }
    this.tail.push(chunk);
    this.tailSize += chunk.length;
    // Drop whole chunks from the front while the rest still covers the tail; then trim the first.
    while (this.tail.length > 1 && this.tailSize - this.tail[0]!.length >= this.tailBytes) this.tailSize -= this.tail.shift()!.length;
    if (this.tailSize > this.tailBytes * 2) {
      const joined = Buffer.concat(this.tail).subarray(this.tailSize - this.tailBytes);
      this.tail = [joined];
      this.tailSize = joined.length;
    }
  }

  /** Bytes held now: at most head + twice the tail + one chunk, whatever went through. */
  get retained(): number {
    return this.headSize + this.tailSize;
  }

  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    const tailBuffer = Buffer.concat(this.tail);
    const kept = tailBuffer.subarray(Math.max(0, tailBuffer.length - this.tailBytes));
    const cut = this.total - this.headSize - kept.length;
    if (cut <= 0) return head + kept.toString('utf8');
    return `${head}\n[… ${cut.toLocaleString('en')} bytes cut from the middle of ${this.total.toLocaleString('en')} bytes of output …]\n${kept.toString('utf8')}`;
  }
}
