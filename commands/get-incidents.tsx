import React from 'react';
import {z} from 'zod';
import {CommandOutput} from '../source/cli/command-output.js';

export const description = 'The error inbox as incidents labelled <severity>:<kind> (the get_incidents tool)';

export const options = z.object({
  raw: z.boolean().default(false).describe('Print the JSON array of incidents'),
  daemon: z.boolean().default(true).describe('Ask the daemon (--no-daemon: legacy mode)'),
});

export default function GetIncidents({options: flags}: {options: z.infer<typeof options>}) {
  return (
    <CommandOutput
      json={flags.raw}
      task={async () => {
        const {runToolCommand} = await import('../source/cli/tool-command.js');
        return runToolCommand('get_incidents', {raw: flags.raw}, {json: flags.raw, noDaemon: !flags.daemon});
      }}
    />
  );
}
