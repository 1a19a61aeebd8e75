import {z} from 'zod';
import {argument} from 'pastel';
import {textCommand} from './command-output.js';

type Action = 'status' | 'stop' | 'restart' | 'remove';

const descriptions: Record<Action, string> = {
  status: "Show one process's status",
  stop: 'Stop a process (SIGTERM to its process group, SIGKILL after 3 s)',
  restart: 'Restart a process with the same command and id',
  remove: 'Forget an ended process, its output and its alerts',
};

/** The four `proc <action> <id>` commands differ only in the action they pass to the proc tool. */
export function procActionCommand(action: Action) {
  const args = z.tuple([z.string().describe(argument({name: 'id', description: 'Process id'}))]);
  const options = z.object({json: z.boolean().default(false).describe('Print JSON')});
  type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};
  const Component = textCommand<Props>(
    async ({args: [id], options: flags}) => {
      const {runToolCommand} = await import('./tool-command.js');
      return runToolCommand('proc', {action, process_id: id}, {json: flags.json});
    },
    {json: ({options: flags}) => flags.json},
  );
  return {description: descriptions[action], args, options, Component};
}
