import React, {useEffect} from 'react';
import {describeError, isWorkbenchError} from '../core/errors.js';
import {toTerminalLine} from '../text/terminal-safe.js';

export interface CommandResult {
  stdout?: string;
  stderr?: string;
  exitCode?: number;
}

export type CommandTask<Props> = (props: Props) => Promise<CommandResult>;

/** A pastel command component that only prints text; `task` lets the CLI run it without ink. */
export interface TextCommand<Props> {
  (props: Props): React.ReactElement;
  task: CommandTask<Props>;
  /** Whether errors are printed as `{"error": ...}` on stdout too (--json / --raw). */
  json?: (props: Props) => boolean;
  /** The same command with fixed props: a group's default (`workbench proc` is `proc list`). */
  withProps(fixed: Props): TextCommand<Record<string, unknown>>;
}

/**
 * Defines a command that prints text. pastel renders components with ink; in the built CLI,
 * source/cli/pastel-render.ts runs `task` directly instead (ink costs ~120 ms to load), and under
 * ink the component below does the same job.
 */
export function textCommand<Props>(task: CommandTask<Props>, options: {json?: (props: Props) => boolean} = {}): TextCommand<Props> {
  const Command = ((props: Props) => <CommandOutput task={() => task(props)} json={options.json?.(props)} />) as TextCommand<Props>;
  Command.task = task;
  Command.json = options.json;
  Command.withProps = (fixed) => textCommand<Record<string, unknown>>(() => task(fixed));
  return Command;
}

/** Runs a task and writes its result; bad input becomes one line on stderr and exit code 1. */
export async function runTask(task: () => Promise<CommandResult>, json = false): Promise<void> {
  try {
    const result = await task();
    await write(process.stdout, result.stdout);
    await write(process.stderr, result.stderr);
    process.exitCode = result.exitCode ?? 0;
  } catch (error) {
    const message = describeError(error);
    if (json) await write(process.stdout, JSON.stringify({error: message}) + '\n');
    // Messages quote servers and feeds: one safe line on the terminal, whole in the JSON above.
    await write(process.stderr, `workbench: ${toTerminalLine(message)}\n`);
    if (!isWorkbenchError(error) && process.env.WORKBENCH_DEBUG) await write(process.stderr, `${(error as Error)?.stack}\n`);
    process.exitCode = 1;
  }
}

/**
 * The ink face of a text command: runs the task once, writes around ink (which would wrap JSON),
 * then exits. It needs nothing from ink itself, so importing it never loads ink.
 */
export function CommandOutput({task, json}: {task: () => Promise<CommandResult>; json?: boolean}): null {
  useEffect(() => {
    // Everything is written when runTask resolves; open sockets or timers must not keep the command alive.
    void runTask(task, json).finally(() => setImmediate(() => process.exit()));
    // Runs once per command: the task and its flags are fixed for the life of the process.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return null;
}

/** Resolves once the text is handed to the OS, so exiting next loses nothing on a pipe. */
function write(stream: NodeJS.WriteStream, text: string | undefined): Promise<void> {
  if (!text) return Promise.resolve();
  return new Promise((resolve) => stream.write(text, () => resolve()));
}
