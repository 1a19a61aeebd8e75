import {spawn} from 'node:child_process';
import {createInterface} from 'node:readline';
import {Readable, Writable} from 'node:stream';
import type {AgentCommand} from './command-line.js';

export interface AgentExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** How many of the agent's last stderr lines are kept to show when it dies. */
export const STDERR_TAIL_LINES = 50;
// A line longer than this is cut: an agent that writes megabytes without a newline must not fill memory.
const MAX_LINE = 4000;
// After the agent exits, how long its stderr may take to be read to the end.
const STDERR_DRAIN_MS = 500;
// After SIGTERM, how long the agent gets to exit before SIGKILL.
const KILL_GRACE_MS = 2000;

export interface AgentProcess {
  readonly pid: number;
  /** What we write to the agent (its stdin) and read from it (its stdout), as web streams for the SDK. */
  readonly input: WritableStream<Uint8Array>;
  readonly output: ReadableStream<Uint8Array>;
  /** Settles once the agent has exited (and been reaped: its pid is gone). */
  readonly exited: Promise<AgentExit>;
  /** The last lines the agent wrote to stderr, oldest first. */
  stderrTail(): string[];
  onStderrLine(listener: (line: string) => void): void;
  /** SIGTERM to the agent's process group (it may have started helpers), SIGKILL after a grace period; resolves when it has exited. */
  kill(): Promise<AgentExit>;
}

/**
 * Starts the agent in `cwd` with piped stdio, in a process group of its own so that Ctrl-C in
 * the terminal reaches workbench (which cancels the turn) and not the agent, and so that closing
 * the session ends whatever the agent started. Rejects with the spawn error (ENOENT, EACCES) when
 * the program cannot be started at all.
 */
export function launchAgent(command: AgentCommand, cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<AgentProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(command.file, command.args, {cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true});
    const tail: string[] = [];
    const listeners: Array<(line: string) => void> = [];
    let exit: AgentExit | undefined;
    let stderrDone!: () => void;
    const stderrRead = new Promise<void>((resolve) => (stderrDone = resolve));
    const exited = new Promise<AgentExit>((done) =>
      child.once('exit', (code, signal) => {
        process.off('exit', killOnExit);
        // Its last stderr lines (why it died) may still be in the pipe: read them first, unless a
        // helper it started holds the pipe open.
        const settle = setTimeout(stderrDone, STDERR_DRAIN_MS);
        void stderrRead.then(() => {
          clearTimeout(settle);
          exit = {code, signal};
          done(exit);
        });
      }),
    );
    // workbench ending for any reason (an uncaught error, process.exit) takes the agent with it.
    const killOnExit = () => signalGroup(child.pid, 'SIGKILL');

    child.once('error', (error) => {
      if (child.pid === undefined) reject(error);
    });
    // A write after the agent died fails with EPIPE; the exit is reported through `exited`.
    child.stdin.on('error', () => {});
    child.once('spawn', () => {
      const pid = child.pid as number;
      process.on('exit', killOnExit);
      const lines = createInterface({input: child.stderr, crlfDelay: Infinity});
      lines.once('close', () => stderrDone());
      lines.on('line', (raw) => {
        const line = raw.length > MAX_LINE ? `${raw.slice(0, MAX_LINE)}…` : raw;
        tail.push(line);
        if (tail.length > STDERR_TAIL_LINES) tail.shift();
        for (const listener of listeners) listener(line);
      });
      let killing: Promise<AgentExit> | undefined;
      resolve({
        pid,
        input: Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
        output: Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
        exited,
        stderrTail: () => [...tail],
        onStderrLine: (listener) => void listeners.push(listener),
        kill() {
          killing ??= (async () => {
            // The group may outlive its leader (a wrapper such as npx that already exited): signal it anyway.
            signalGroup(pid, 'SIGTERM');
            if (exit) return exit;
            const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), KILL_GRACE_MS);
            try {
              return await exited;
            } finally {
              clearTimeout(timer);
              signalGroup(pid, 'SIGKILL');
            }
          })();
          return killing;
        },
      });
    });
  });
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
}

/** `code 3`, `signal SIGKILL`: how the agent ended, for a row. */
export function describeExit(exit: AgentExit): string {
  return exit.code !== null ? `code ${exit.code}` : `signal ${exit.signal ?? 'unknown'}`;
}
