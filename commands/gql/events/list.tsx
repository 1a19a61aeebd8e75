import {z} from 'zod';
import {option} from 'pastel';
import {textCommand} from '../../../source/cli/command-output.js';
import {rawFlag, settingsFlag} from '../../../source/cli/gql/gql-flags.js';

export const description = 'List the outbox: id, state (pending, retrying, dispatched, dead), table, operation, key, last failure';

export const options = z.object({
  ...settingsFlag,
  state: z
    .string()
    .optional()
    .describe(option({description: 'pending, dispatched, dead or all (default all)', valueDescription: 'state'})),
  from: z
    .string()
    .optional()
    .describe(option({description: 'First event id', valueDescription: 'id'})),
  limit: z
    .string()
    .optional()
    .describe(option({description: 'Events shown (default 100)', valueDescription: 'n'})),
  ...rawFlag,
});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({options: flags}) => {
    const {listEvents} = await import('../../../source/cli/gql/events.js');
    return listEvents(flags);
  },
  {json: ({options: flags}) => flags.raw},
);
