import {z} from 'zod';
import {argument} from 'pastel';
import {textCommand} from '../source/cli/command-output.js';

export const description = 'Detect the project type, package manager and runnable scripts';

export const args = z.tuple([
  z
    .string()
    .optional()
    .describe(argument({name: 'path', description: 'Project directory (default: current)'})),
]);

export const options = z.object({
  json: z.boolean().default(false).describe('Print JSON'),
});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [path], options: flags}) => {
    const {runToolCommand} = await import('../source/cli/tool-command.js');
    return runToolCommand('detect', {path}, {json: flags.json});
  },
  {json: ({options: flags}) => flags.json},
);
