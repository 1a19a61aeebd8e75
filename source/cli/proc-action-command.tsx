import React from 'react';
import {z} from 'zod';
import {argument} from 'pastel';
import {CommandOutput} from './command-output.js';

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
  function Component({args: [id], options: flags}: {args: z.infer<typeof args>; options: z.infer<typeof options>}) {
    return (
      <CommandOutput
        json={flags.json}
        task={async () => {
          const {runToolCommand} = await import('./tool-command.js');
          return runToolCommand('proc', {action, process_id: id}, {json: flags.json});
        }}
      />
    );
  }
  return {description: descriptions[action], args, options, Component};
}
