import {WorkbenchError} from '../core/errors.js';
import {createToolContext} from '../tools/context.js';
import {loadTool} from '../tools/load-tool.js';
import type {CommandResult} from './command-output.js';

/**
 * The CLI face of a tool: validates the arguments with the tool's own schema (messages name
 * `--flags`), runs its handler, and prints its compact text, or its JSON with --json/--raw.
 */
export async function runToolCommand(
  name: string,
  args: Record<string, unknown>,
  options: {
    json?: boolean;
    noDaemon?: boolean;
    cwd?: string;
    select?: (result: never) => unknown;
    exitCode?: (result: never) => number;
  } = {},
): Promise<CommandResult> {
  const tool = await loadTool(name);
  if (!tool) throw new WorkbenchError('not_found', `unknown tool "${name}"`);
  const notices: string[] = [];
  const context = createToolContext({cwd: options.cwd, noDaemon: options.noDaemon, notice: (message) => notices.push(message)});
  try {
    const outcome = await tool.call(stripUndefined(args), context, 'cli');
    // A result that is the call's failure (the page's code threw): one line, exit 1, `{"error"}` with --json.
    if (outcome.failure !== undefined) throw new WorkbenchError('page_error', outcome.failure);
    const stdout = options.json ? JSON.stringify(options.select ? options.select(outcome.raw as never) : outcome.raw, null, 2) + '\n' : outcome.text;
    return {
      stdout: stdout.endsWith('\n') ? stdout : stdout + '\n',
      stderr: notices.map((line) => line + '\n').join(''),
      exitCode: options.exitCode?.(outcome.raw as never),
    };
  } finally {
    context.close();
  }
}

export function stripUndefined(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined));
}
