import {z} from 'zod';
import {WorkbenchError} from '../core/errors.js';
import {describeStatus, formatProcessTable} from '../processes/describe.js';
import type {ProcessInfo} from '../processes/types.js';
import {defineTool, type ToolContext} from './registry-types.js';

export const procInput = z.object({
  action: z.enum(['list', 'status', 'output', 'stop', 'restart', 'remove']).describe('What to do'),
  process_id: z.string().min(1).max(64).optional().describe('The process (all actions but list)'),
  tail: z.number().int().min(0).max(100_000).optional().describe('output: last N lines'),
  grep: z.string().max(1000).optional().describe('output: keep lines matching this regular expression'),
  raw: z.boolean().optional().describe('output: keep ANSI escapes (colours) as the process printed them'),
});

export type ProcArgs = z.infer<typeof procInput>;

export type ProcResult =
  | {action: 'list'; processes: ProcessInfo[]}
  | {action: 'output'; process_id: string; output: string}
  | {action: 'status' | 'stop' | 'restart'; process: ProcessInfo}
  | {action: 'remove'; process_id: string};

export async function procTask(args: ProcArgs, context: ToolContext): Promise<ProcResult> {
  const client = await context.daemon();
  if (args.action === 'list') return {action: 'list', processes: await client.call('proc.list')};
  const id = args.process_id;
  if (!id) throw new WorkbenchError('invalid_argument', `proc ${args.action} needs a process id`);
  switch (args.action) {
    case 'output': {
      const {output} = await client.call('proc.output', {id, tail: args.tail, grep: args.grep, raw: args.raw});
      return {action: 'output', process_id: id, output};
    }
    case 'status':
      return {action: 'status', process: await client.call('proc.get', {id})};
    case 'stop':
      return {action: 'stop', process: await client.call('proc.stop', {id})};
    case 'restart':
      return {action: 'restart', process: await client.call('proc.restart', {id})};
    case 'remove':
      await client.call('proc.remove', {id});
      return {action: 'remove', process_id: id};
  }
}

export function formatProcResult(result: ProcResult): string {
  switch (result.action) {
    case 'list':
      return formatProcessTable(result.processes);
    case 'output':
      return result.output;
    case 'remove':
      return `removed ${result.process_id}\n`;
    default: {
      const info = result.process;
      return `${info.id}: ${describeStatus(info)}${info.pid ? ` (pid ${info.pid})` : ''} — ${info.command}\n`;
    }
  }
}

export const procTool = defineTool({
  name: 'proc',
  description: 'Lists supervised processes, shows a process output (tail, grep) and status, and stops, restarts or removes one.',
  input: procInput,
  handler: procTask,
  compact: formatProcResult,
});
