import {z} from 'zod';
import {textCommand} from '../../source/cli/command-output.js';

export const description = 'List running dev proxies: URL, target, requests, errors, connected pages';

export const options = z.object({
  json: z.boolean().default(false).describe('Print JSON'),
});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({options: flags}) => {
    const {runToolCommand} = await import('../../source/cli/tool-command.js');
    return runToolCommand('proxy', {action: 'list'}, {json: flags.json, select: (result: {proxies: unknown}) => result.proxies});
  },
  {json: ({options: flags}) => flags.json},
);
