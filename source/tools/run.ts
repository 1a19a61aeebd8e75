import {resolve} from 'node:path';
import {z} from 'zod';
import {WorkbenchError} from '../core/errors.js';
import {describeStatus} from '../processes/describe.js';
import {resolveScript} from '../processes/resolve-script.js';
import type {ProcessInfo, StartRequest} from '../processes/types.js';
import {stripAnsi} from '../text/ansi.js';
import {fitText} from './budget.js';
import type {DaemonClient} from '../daemon/client.js';
import {checkCancelled, tickSeconds} from './call-progress.js';
import {runForeground} from './foreground.js';
import {processInfoSchema} from './output-schemas.js';
import {defineTool, type ToolContext} from './registry-types.js';
import {waitForPort} from './wait-port.js';

export const runInput = z.strictObject({
  script_name: z.string().min(1).max(128).optional().describe('A script from `detect` or .workbench.kdl'),
  cmd: z.string().min(1).max(8192).optional().describe('A shell command to run instead of a script'),
  id: z.string().min(1).max(64).optional().describe('Process id; defaults to the script name or the command'),
  path: z.string().max(4096).optional().describe('Project directory; defaults to the current directory'),
  mode: z.enum(['background', 'foreground']).default('background').describe('background returns at once; foreground waits for the exit and returns the output'),
  timeout_seconds: z.number().int().min(1).max(3600).default(120).describe('foreground, or background with wait_port: stop waiting after this long (the process keeps running)'),
  wait_port: z
    .number()
    .int()
    .min(1)
    .max(65535)
    .optional()
    .describe('background only: answer once 127.0.0.1:<port> accepts a connection (a dev server is ready); fails when the process exits first or after timeout_seconds'),
});

export type RunArgs = z.input<typeof runInput>;

export interface RunResult {
  process: ProcessInfo;
  output?: string;
  timedOut?: boolean;
  /** wait_port: the port that accepted a connection, and after how many seconds. */
  ready?: {port: number; seconds: number};
}

/** Turns run arguments into a start request: a named script or a shell command, never both. */
export async function startRequest(args: RunArgs, cwd: string): Promise<StartRequest & {cmd: string}> {
  if (args.script_name && args.cmd) throw new WorkbenchError('invalid_argument', 'give a script name or a command (--cmd), not both');
  const base = resolve(cwd, args.path ?? '.');
  if (args.cmd) return {cmd: args.cmd, id: args.id, cwd: base};
  if (!args.script_name) throw new WorkbenchError('invalid_argument', 'nothing to run: give a script name (see `workbench detect`) or --cmd "<shell command>"');
  const script = await resolveScript(args.script_name, base);
  return {cmd: script.command, scriptName: script.name, id: args.id ?? script.name, cwd: script.cwd};
}

export async function runTask(args: RunArgs, context: ToolContext): Promise<RunResult> {
  if (args.wait_port !== undefined && args.mode === 'foreground')
    throw new WorkbenchError('invalid_argument', 'wait_port is for background runs (a foreground run answers when the process exits)');
  const request = await startRequest(args, context.cwd);
  const client = await context.daemon();
  checkCancelled(context.call);
  const timeoutMs = (args.timeout_seconds ?? 120) * 1000;
  if (args.mode === 'foreground') return runInForeground(client, request, timeoutMs, context);
  const info = await client.call('proc.start', request);
  if (args.wait_port === undefined) return {process: info};
  const seconds = await waitForPort(client, info, args.wait_port, {timeoutMs, call: context.call});
  return {process: await client.call('proc.get', {id: info.id}), ready: {port: args.wait_port, seconds}};
}

/** A foreground run for a tool call: progress while it runs (seconds, bytes of output); a cancel stops the process. */
async function runInForeground(client: DaemonClient, request: StartRequest & {cmd: string}, timeoutMs: number, context: ToolContext): Promise<RunResult> {
  const call = context.call;
  let bytes = 0;
  let processId: string | undefined;
  const stopProcess = () => void (processId && client.call('proc.stop', {id: processId}).catch(() => undefined));
  call?.signal.addEventListener('abort', stopProcess, {once: true});
  const stopTicks = call ? tickSeconds(call, (seconds) => `running, ${seconds}s, ${bytes.toLocaleString('en')} bytes of output`) : () => undefined;
  try {
    const run = await runForeground(client, request, {
      timeoutMs,
      observe: (data) => (bytes += Buffer.byteLength(data)),
      onStart: (info) => {
        processId = info.id;
        if (call?.signal.aborted) stopProcess();
      },
    });
    checkCancelled(call);
    const output = stripAnsi(run.output);
    const hint = `the whole output: proc {"action": "output", "process_id": "${run.info.id}", "tail": 200}`;
    const fitted = context.budget ? fitText(output, {keep: 'tail', budget: context.budget - 1000, hint}) : {text: output};
    return {process: run.info, output: fitted.text, timedOut: run.timedOut};
  } finally {
    stopTicks();
    call?.signal.removeEventListener('abort', stopProcess);
  }
}

export function formatRunResult(result: RunResult): string {
  const info = result.process;
  const head = info.status === 'running' ? `started ${info.id} (pid ${info.pid}): ${info.command}` : `${info.id} ${describeStatus(info)}: ${info.command}`;
  const lines = [head];
  if (result.ready) lines.push(`listening on 127.0.0.1:${result.ready.port} after ${result.ready.seconds.toFixed(1)} s`);
  if (result.timedOut) lines.push(`still running after the timeout; follow it with proc output ${info.id}`);
  if (result.output) lines.push('', result.output.trimEnd());
  return lines.join('\n') + '\n';
}

export const runTool = defineTool({
  name: 'run',
  title: 'Run a script or command',
  description: [
    'Starts a dev server, script or shell command in a pseudo-terminal owned by the workbench daemon, which keeps it running and scans its output for errors (see get_incidents).',
    'background (default) returns at once, then use proc to read output; foreground waits for the exit (a build, a test run) and returns the output. Script names come from detect.',
    'wait_port makes a background run answer once the server listens on 127.0.0.1:<port> (or fail when it exits first); with a progressToken the waits report progress, and a cancelled wait stops the process it started.',
    'Examples: {"script_name": "dev"}; {"script_name": "dev", "wait_port": 3000}; {"cmd": "npm test", "mode": "foreground", "timeout_seconds": 300}',
  ].join('\n'),
  // Runs what it is given: a command can reach anything.
  annotations: {readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true},
  input: runInput,
  output: z.object({
    process: processInfoSchema,
    output: z.string().optional().describe('foreground: the output'),
    timedOut: z.boolean().optional(),
    ready: z.object({port: z.number().int(), seconds: z.number()}).optional().describe('wait_port: the port that answered, after how many seconds'),
  }),
  handler: runTask,
  compact: formatRunResult,
  structured: (result) => ({...result}),
});
