import React from 'react';
import {z} from 'zod';
import {argument} from 'pastel';
import {CommandOutput} from '../../source/cli/command-output.js';

export const description = "Restart a process with the same command";

export const args = z.tuple([z.string().describe(argument({name: 'id', description: 'Process id'}))]);

export const options = z.object({
  json: z.boolean().default(false).describe('Print JSON'),
});

export default function ProcRestart({args: [id], options: flags}: {args: z.infer<typeof args>; options: z.infer<typeof options>}) {
  return (
    <CommandOutput
      json={flags.json}
      task={async () => {
        const {runToolCommand} = await import('../../source/cli/tool-command.js');
        return runToolCommand('proc', {action: 'restart', process_id: id}, {json: flags.json});
      }}
    />
  );
}
