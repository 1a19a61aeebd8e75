import {z} from 'zod';
import {textCommand} from '../../source/cli/command-output.js';

export const description = "List this project's supervised processes: status, pid, uptime, alerts (--all: every project's)";

export const options = z.object({
  json: z.boolean().default(false).describe('Print JSON'),
  all: z.boolean().default(false).describe("Every project's processes, with a PROJECT column"),
});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({options: flags}) => {
    const {runToolCommand} = await import('../../source/cli/tool-command.js');
    return runToolCommand('proc', {action: 'list', all: flags.all}, {json: flags.json, select: (result: {processes: unknown}) => result.processes});
  },
  {json: ({options: flags}) => flags.json},
);
