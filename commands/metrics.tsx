import {z} from 'zod';
import {textCommand} from '../source/cli/command-output.js';

export const description = 'The current figures of the daemon and every running server (requests/s, latency, status mix, CPU, memory, errors), read twice 1 s apart';

export const options = z.object({
  json: z.boolean().default(false).describe('Print the figures as JSON'),
});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({options: flags}) => {
    const {metricsCommand} = await import('../source/cli/metrics.js');
    return metricsCommand(flags);
  },
  {json: ({options: flags}) => flags.json},
);
