import {z} from 'zod';
import {argument} from 'pastel';
import {textCommand} from '../source/cli/command-output.js';

export const description = 'Browser pages open through the dev proxies: URL, title, errors since load (the currentpage tool)';

export const args = z.tuple([
  z
    .string()
    .optional()
    .describe(argument({name: 'proxy_id', description: "One proxy's pages (every proxy's when absent)"})),
]);

export const options = z.object({
  json: z.boolean().default(false).describe('Print JSON'),
});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [proxyId], options: flags}) => {
    const {runToolCommand} = await import('../source/cli/tool-command.js');
    return runToolCommand('currentpage', {proxy_id: proxyId}, {json: flags.json});
  },
  {json: ({options: flags}) => flags.json},
);
