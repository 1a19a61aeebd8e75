import {z} from 'zod';
import {argument} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';

export const description = "Delete a snapshot: its baseline, meta and last comparison's images";

export const args = z.tuple([z.string().describe(argument({name: 'name', description: 'Snapshot name'}))]);

export const options = z.object({
  json: z.boolean().default(false).describe('Print JSON'),
});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [name], options: flags}) => {
    const {runToolCommand} = await import('../../source/cli/tool-command.js');
    return runToolCommand('snapshot', {action: 'delete', name}, {json: flags.json});
  },
  {json: ({options: flags}) => flags.json},
);
