import React from 'react';
import {z} from 'zod';
import {CommandOutput} from '../../source/cli/command-output.js';

export const description = 'List supervised processes: status, pid, uptime, alerts';

export const options = z.object({
  json: z.boolean().default(false).describe('Print JSON'),
});

export default function ProcList({options: flags}: {options: z.infer<typeof options>}) {
  return (
    <CommandOutput
      json={flags.json}
      task={async () => {
        const {runToolCommand} = await import('../../source/cli/tool-command.js');
        return runToolCommand('proc', {action: 'list'}, {json: flags.json, select: (result) => result.processes});
      }}
    />
  );
}
