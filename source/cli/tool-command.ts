import {z} from 'zod';
import {WorkbenchError} from '../core/errors.js';
import {createToolContext} from '../tools/context.js';
import {findTool} from '../tools/registry.js';
import type {CommandResult} from './command-output.js';

/**
 * The CLI face of a tool: validates the arguments with the tool's own schema, runs its handler,
 * and prints its compact text, or JSON with --json/--raw.
 */
export async function runToolCommand(
  name: string,
  args: Record<string, unknown>,
  options: {json?: boolean; noDaemon?: boolean; cwd?: string; select?: (result: never) => unknown} = {},
): Promise<CommandResult> {
  const tool = findTool(name);
  if (!tool) throw new WorkbenchError('not_found', `unknown tool "${name}"`);
  const parsed = tool.input.safeParse(stripUndefined(args));
  if (!parsed.success) throw new WorkbenchError('invalid_argument', describeIssue(parsed.error));
  const notices: string[] = [];
  const context = createToolContext({cwd: options.cwd, noDaemon: options.noDaemon, notice: (message) => notices.push(message)});
  try {
    const result = await tool.handler(parsed.data as never, context);
    const stdout = options.json ? JSON.stringify(options.select ? options.select(result as never) : result, null, 2) + '\n' : tool.compact(result, parsed.data as never);
    return {stdout: stdout.endsWith('\n') ? stdout : stdout + '\n', stderr: notices.map((line) => line + '\n').join('')};
  } finally {
    context.close();
  }
}

function stripUndefined(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined));
}

export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid arguments';
  const where = issue.path.length ? `--${String(issue.path[0]).replace(/_/g, '-')}: ` : '';
  return `${where}${issue.message}`;
}
