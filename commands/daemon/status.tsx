import {z} from 'zod';
import {textCommand} from '../../source/cli/command-output.js';

export const description = 'Show whether the daemon runs, its pid, socket and process count';

export const options = z.object({
  json: z.boolean().default(false).describe('Print JSON'),
});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({options: flags}) => {
    const {daemonStatus} = await import('../../source/daemon/lifecycle.js');
    const status = await daemonStatus();
    if (flags.json) return {stdout: JSON.stringify(status, null, 2) + '\n'};
    if (status.refused) return {stderr: `workbench: ${status.refused}\n`, exitCode: 1};
    if (!status.running) return {stdout: `not running (home ${status.home})\n`, exitCode: 3};
    const since = new Date(status.startedAt!).toISOString();
    const {describeSurvivors} = await import('../../source/daemon/lifecycle.js');
    const survivors = status.survivors?.length ? `still running from a daemon that died, not supervised: ${describeSurvivors(status.survivors)}\n` : '';
    return {stdout: `running: pid ${status.pid}, since ${since}, ${status.processes} process(es)\nsocket ${status.socket}\nhome ${status.home}\n${survivors}`};
  },
  {json: ({options: flags}) => flags.json},
);
