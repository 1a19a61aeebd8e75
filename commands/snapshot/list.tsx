import {z} from 'zod';
import {textCommand} from '../../source/cli/command-output.js';

export const description = 'Stored snapshots: name, url, size, when taken, last comparison';

export const options = z.object({
  json: z.boolean().default(false).describe('Print JSON'),
});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({options: flags}) => {
    const {runToolCommand} = await import('../../source/cli/tool-command.js');
    return runToolCommand('snapshot', {action: 'list'}, {json: flags.json, select: (result: {snapshots: unknown}) => result.snapshots});
  },
  {json: ({options: flags}) => flags.json},
);
