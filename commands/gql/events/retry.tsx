import {z} from 'zod';
import {argument} from 'pastel';
import {textCommand} from '../../../source/cli/command-output.js';
import {rawFlag, settingsFlag} from '../../../source/cli/gql/gql-flags.js';

export const description = 'Try a dead letter (or an event waiting out its backoff) again now';

export const args = z.tuple([z.string().describe(argument({name: 'id', description: 'The event id (gql events list --state dead)'}))]);

export const options = z.object({...settingsFlag, ...rawFlag});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [id], options: flags}) => {
    const {retryEvent} = await import('../../../source/cli/gql/events.js');
    return retryEvent(flags, id);
  },
  {json: ({options: flags}) => flags.raw},
);
