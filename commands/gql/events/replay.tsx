import {z} from 'zod';
import {option} from 'pastel';
import {textCommand} from '../../../source/cli/command-output.js';
import {rawFlag, settingsFlag} from '../../../source/cli/gql/gql-flags.js';

export const description = 'Deliver every event from an id on again (a consumer that lost its data); dead letters included';

export const options = z.object({
  ...settingsFlag,
  from: z
    .string()
    .optional()
    .describe(option({description: 'The first event to deliver again', valueDescription: 'id'})),
  ...rawFlag,
});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({options: flags}) => {
    const {replayEvents} = await import('../../../source/cli/gql/events.js');
    return replayEvents(flags);
  },
  {json: ({options: flags}) => flags.raw},
);
