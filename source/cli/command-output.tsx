import {useApp} from 'ink';
import {useEffect} from 'react';
import {describeError, isWorkbenchError} from '../core/errors.js';

export interface CommandResult {
  stdout?: string;
  stderr?: string;
  exitCode?: number;
}

/**
 * Runs a command's task once and writes its result straight to stdout/stderr: pastel renders with
 * ink, which would wrap long lines (JSON) to the terminal width, so text output bypasses it.
 */
export function CommandOutput({task, json}: {task: () => Promise<CommandResult>; json?: boolean}): null {
  const {exit} = useApp();
  useEffect(() => {
    let done = false;
    task()
      .then(async (result) => {
        await write(process.stdout, result.stdout);
        await write(process.stderr, result.stderr);
        process.exitCode = result.exitCode ?? 0;
      })
      .catch(async (error: unknown) => {
        const message = describeError(error);
        if (json) await write(process.stdout, JSON.stringify({error: message}) + '\n');
        await write(process.stderr, `workbench: ${message}\n`);
        if (!isWorkbenchError(error) && process.env.WORKBENCH_DEBUG) await write(process.stderr, `${(error as Error)?.stack}\n`);
        process.exitCode = 1;
      })
      .finally(() => {
        done = true;
        exit();
        // Everything is written (see write()); open sockets or timers must not keep a finished command alive.
        setImmediate(() => process.exit());
      });
    return () => {
      if (!done) process.exitCode = process.exitCode ?? 1;
    };
  }, []);
  return null;
}

/** Resolves once the text is handed to the OS, so exiting next loses nothing on a pipe. */
function write(stream: NodeJS.WriteStream, text: string | undefined): Promise<void> {
  if (!text) return Promise.resolve();
  return new Promise((resolve) => stream.write(text, () => resolve()));
}

/** Notices (daemon restarted) go to stderr so stdout stays clean for scripts. */
export function notice(message: string): void {
  process.stderr.write(`${message}\n`);
}
