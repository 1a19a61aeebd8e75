import {z} from 'zod';
import {argument} from 'pastel';
import {textCommand} from './command-output.js';

type Action = 'status' | 'stop';

const descriptions: Record<Action, string> = {
  status: "Show one dev proxy's address, target and counters",
  stop: 'Stop a dev proxy (its traffic log goes with it)',
};

/** `proxy status <id>` and `proxy stop <id>` differ only in the action they pass to the proxy tool. */
export function proxyActionCommand(action: Action) {
  const args = z.tuple([z.string().describe(argument({name: 'id', description: 'Proxy id'}))]);
  const options = z.object({json: z.boolean().default(false).describe('Print JSON')});
  type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};
  const Component = textCommand<Props>(
    async ({args: [id], options: flags}) => {
      const {runToolCommand} = await import('./tool-command.js');
      return runToolCommand('proxy', {action, id}, {json: flags.json, select: (result: {proxy: unknown}) => result.proxy});
    },
    {json: ({options: flags}) => flags.json},
  );
  return {description: descriptions[action], args, options, Component};
}
