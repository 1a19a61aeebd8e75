import React from 'react';
import {z} from 'zod';
import {CommandOutput} from '../../source/cli/command-output.js';

export const description = 'Show whether the daemon runs, its pid, socket and process count';

export const options = z.object({
  json: z.boolean().default(false).describe('Print JSON'),
});

export default function DaemonStatus({options: flags}: {options: z.infer<typeof options>}) {
  return (
    <CommandOutput
      json={flags.json}
      task={async () => {
        const {daemonStatus} = await import('../../source/daemon/lifecycle.js');
        const status = await daemonStatus();
        if (flags.json) return {stdout: JSON.stringify(status, null, 2) + '\n'};
        if (!status.running) return {stdout: `not running (home ${status.home})\n`, exitCode: 3};
        const since = new Date(status.startedAt!).toISOString();
        return {stdout: `running: pid ${status.pid}, since ${since}, ${status.processes} process(es)\nsocket ${status.socket}\nhome ${status.home}\n`};
      }}
    />
  );
}
