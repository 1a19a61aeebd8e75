import React from 'react';
import {z} from 'zod';
import {argument} from 'pastel';
import {CommandOutput} from '../source/cli/command-output.js';

export const description = 'Detect the project type, package manager and runnable scripts';

export const args = z.tuple([z.string().optional().describe(argument({name: 'path', description: 'Project directory (default: current)'}))]);

export const options = z.object({
  json: z.boolean().default(false).describe('Print JSON'),
});

export default function Detect({args: [path], options: flags}: {args: z.infer<typeof args>; options: z.infer<typeof options>}) {
  return (
    <CommandOutput
      json={flags.json}
      task={async () => {
        const {runToolCommand} = await import('../source/cli/tool-command.js');
        return runToolCommand('detect', {path}, {json: flags.json});
      }}
    />
  );
}
