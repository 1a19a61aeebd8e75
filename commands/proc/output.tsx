import {z} from 'zod';
import {argument, option} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';

export const description = "Print a process's output ring (ANSI stripped)";

export const args = z.tuple([z.string().describe(argument({name: 'id', description: 'Process id'}))]);

export const options = z.object({
  tail: z
    .string()
    .optional()
    .describe(option({description: 'Last N lines', valueDescription: 'n'})),
  grep: z
    .string()
    .optional()
    .describe(option({description: 'Only lines matching a regular expression', valueDescription: 're'})),
  follow: z
    .boolean()
    .default(false)
    .describe(option({description: 'Keep printing new output until Ctrl-C or the process ends', alias: 'f'})),
});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(async ({args: [id], options: flags}) => {
  const {runToolCommand} = await import('../../source/cli/tool-command.js');
  const {parseCount} = await import('../../source/core/parse-number.js');
  if (flags.follow) {
    if (flags.grep !== undefined) {
      const {WorkbenchError} = await import('../../source/core/errors.js');
      throw new WorkbenchError('invalid_argument', '--follow and --grep cannot be used together yet; pipe the output through grep instead');
    }
    const {followOutput} = await import('../../source/cli/follow-output.js');
    return followOutput(id, {tail: parseCount(flags.tail, '--tail')});
  }
  const result = await runToolCommand('proc', {action: 'output', process_id: id, tail: parseCount(flags.tail, '--tail'), grep: flags.grep});
  // The output is printed as the process printed it; no extra newline.
  return {...result, stdout: result.stdout === '\n' ? '' : result.stdout};
});
