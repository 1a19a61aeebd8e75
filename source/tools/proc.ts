import {z} from 'zod';
import {WorkbenchError} from '../core/errors.js';
import {describeStatus, formatProcessTable} from '../processes/describe.js';
import type {ProcessInfo} from '../processes/types.js';
import {fitText} from './budget.js';
import {processInfoSchema} from './output-schemas.js';
import {defineTool, type ToolContext} from './registry-types.js';

export const PROC_ACTIONS = ['list', 'status', 'output', 'stop', 'restart', 'remove'] as const;

export const procInput = z.strictObject({
  action: z.enum(PROC_ACTIONS).default('list').describe('list and status and output read; stop, restart and remove change the process'),
  process_id: z
    .string()
    .min(1)
    .max(4200)
    .optional()
    .describe('The process (every action but list): its id in this project ("web"), or <project root>#<id> for another project\'s, as list with all shows it'),
  all: z.boolean().optional().describe("list: every project's processes, each with its project (default: this project's)"),
  tail: z.number().int().min(0).max(100_000).optional().describe('output: the last N lines (all that fit the answer when unset)'),
  grep: z.string().max(1000).optional().describe('output: only lines matching this regular expression'),
  raw: z.boolean().default(false).describe('output: keep ANSI escapes (colours) as the process printed them'),
});

export type ProcArgs = z.input<typeof procInput>;

export type ProcResult =
  | {action: 'list'; processes: ProcessInfo[]; all?: boolean}
  | {action: 'output'; process_id: string; output: string; cut: number}
  | {action: 'status' | 'stop' | 'restart'; process: ProcessInfo}
  | {action: 'remove'; process_id: string};

export async function procTask(args: ProcArgs, context: ToolContext): Promise<ProcResult> {
  const id = args.process_id;
  const action = args.action ?? 'list';
  if (action !== 'list' && !id) throw new WorkbenchError('invalid_argument', `proc ${action} needs a process id, e.g. {"action": "${action}", "process_id": "dev"}.`);
  const client = await context.daemon();
  if (action === 'list' || !id) return {action: 'list', processes: await client.call('proc.list', {all: args.all}), ...(args.all ? {all: true} : {})};
  switch (action) {
    case 'output': {
      const {output} = await client.call('proc.output', {id, tail: args.tail, grep: args.grep, raw: args.raw});
      // The newest output matters most: a long one keeps its tail and says how to see the rest (room left for that line).
      const fitted = context.budget ? fitText(output, {keep: 'tail', budget: context.budget - 200, hint: 'ask for less with tail (lines) or grep'}) : {text: output, cut: 0};
      return {action: 'output', process_id: id, output: fitted.text, cut: fitted.cut};
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
      return formatProcessTable(result.processes, Date.now(), {projects: result.all});
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
  title: 'Processes: list, output, stop, restart, remove',
  description: [
    'The processes the workbench daemon supervises (started by run or autostart).',
    'Reads: list (every process and its state), status, output (the newest output; narrow with tail or grep). Changes state: stop, restart, and remove (forgets a stopped process, its output and its alerts).',
    "Processes belong to their project: ids are this project's (two projects may each run dev); all lists every project's, each with its project.",
    'Examples: {"action": "list"}; {"action": "list", "all": true}; {"action": "output", "process_id": "dev", "tail": 50}; {"action": "restart", "process_id": "dev"}',
  ].join('\n'),
  // One tool with actions: the hints hold for the tool as a whole (stop and remove end a process).
  annotations: {readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false},
  input: procInput,
  output: z.object({
    action: z.enum(PROC_ACTIONS),
    processes: z.array(processInfoSchema).optional().describe('list'),
    all: z.boolean().optional().describe('list: every project was listed'),
    process: processInfoSchema.optional().describe('status, stop, restart'),
    process_id: z.string().optional().describe('output, remove'),
    output: z.string().optional().describe('output'),
    cut: z.number().int().optional().describe('output: characters left out to fit the answer'),
  }),
  handler: procTask,
  compact: formatProcResult,
  structured: (result) => ({...result}),
});
