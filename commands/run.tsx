import {z} from 'zod';
import {argument, option} from 'pastel';
import {textCommand} from '../source/cli/command-output.js';

export const description = 'Start a script or shell command in a pseudo-terminal owned by the daemon';

export const args = z.tuple([
  z
    .string()
    .optional()
    .describe(argument({name: 'script_name', description: 'A script from `workbench detect` or .workbench.kdl'})),
]);

export const options = z.object({
  cmd: z
    .string()
    .optional()
    .describe(option({description: 'Shell command to run instead of a script', valueDescription: 'shell'})),
  id: z
    .string()
    .optional()
    .describe(option({description: 'Process id (default: script name or command)', valueDescription: 'id'})),
  waitPort: z
    .string()
    .optional()
    .describe(option({description: 'Return once 127.0.0.1:<port> accepts a connection (fails when the process exits first)', valueDescription: 'port'})),
  timeoutSeconds: z
    .string()
    .optional()
    .describe(option({description: 'With --wait-port: how long the port may take (default 120)', valueDescription: 'seconds'})),
  fg: z.boolean().default(false).describe('Stay in the foreground with live output; exit with its exit code'),
  json: z.boolean().default(false).describe('Print the process as JSON'),
});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [scriptName], options: flags}) => {
    if (flags.fg) {
      if (flags.waitPort !== undefined) {
        const {WorkbenchError} = await import('../source/core/errors.js');
        throw new WorkbenchError('invalid_argument', '--wait-port is for background runs: --fg already waits for the exit');
      }
      const {runInForeground} = await import('../source/cli/run-foreground.js');
      return runInForeground({script_name: scriptName, cmd: flags.cmd, id: flags.id});
    }
    const {runToolCommand} = await import('../source/cli/tool-command.js');
    const {parseInteger} = await import('../source/core/parse-number.js');
    const waiting = {wait_port: parseInteger(flags.waitPort, '--wait-port'), timeout_seconds: parseInteger(flags.timeoutSeconds, '--timeout-seconds')};
    return runToolCommand('run', {script_name: scriptName, cmd: flags.cmd, id: flags.id, ...waiting}, {json: flags.json});
  },
  {json: ({options: flags}) => flags.json},
);
