import {z} from 'zod';
import {textCommand} from '../source/cli/command-output.js';

export const description = 'The error inbox as incidents labelled <severity>:<kind> (the get_incidents tool)';

export const options = z.object({
  raw: z.boolean().default(false).describe('Print the JSON array of incidents'),
  daemon: z.boolean().default(true).describe('Ask the daemon (--no-daemon: legacy mode)'),
});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({options: flags}) => {
    const {runToolCommand} = await import('../source/cli/tool-command.js');
    return runToolCommand('get_incidents', {raw: flags.raw}, {json: flags.raw, noDaemon: !flags.daemon});
  },
  {json: ({options: flags}) => flags.raw},
);
