import {describeStatus} from '../processes/describe.js';
import {runForeground} from '../tools/foreground.js';
import {createToolContext} from '../tools/context.js';
import {runInput, startRequest, type RunArgs} from '../tools/run.js';
import {WorkbenchError} from '../core/errors.js';
import {describeIssue} from '../tools/validation.js';
import {stripUndefined} from './tool-command.js';
import type {CommandResult} from './command-output.js';

/** `run --fg`: live output on stdout, Ctrl-C stops the process, exit code is the process's. */
export async function runInForeground(args: RunArgs): Promise<CommandResult> {
  const parsed = runInput.safeParse(stripUndefined(args), {reportInput: true});
  if (!parsed.success) throw new WorkbenchError('invalid_argument', describeIssue(parsed.error, 'cli'));
  const context = createToolContext({notice: (message) => process.stderr.write(message + '\n')});
  const request = await startRequest(parsed.data, context.cwd);
  const client = await context.daemon();
  let processId: string | undefined;
  const interrupt = () => {
    if (processId) void client.call('proc.stop', {id: processId});
  };
  process.on('SIGINT', interrupt);
  try {
    const run = await runForeground(client, request, {
      onStart: (info) => (processId = info.id),
      onOutput: (data) => {
        process.stdout.write(data);
      },
    });
    const info = run.info;
    const code = info.status === 'exited' ? (info.exitCode ?? 1) : info.status === 'stopped' ? 130 : 1;
    return {stderr: `[workbench] ${info.id} ${describeStatus(info)}\n`, exitCode: code};
  } finally {
    process.off('SIGINT', interrupt);
    context.close();
  }
}
