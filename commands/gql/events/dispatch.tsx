import {z} from 'zod';
import {option} from 'pastel';
import {textCommand} from '../../../source/cli/command-output.js';
import {rawFlag, settingsFlag} from '../../../source/cli/gql/gql-flags.js';

export const description = 'Deliver the outbox to Cdc:WebhookUrl (signed CloudEvents) and Cdc:NatsUrl (JetStream) until Ctrl-C; several may run at once';

export const options = z.object({
  ...settingsFlag,
  once: z.boolean().default(false).describe('Deliver what is due, then exit'),
  maxAttempts: z
    .string()
    .optional()
    .describe(option({description: 'Failed deliveries before an event is a dead letter (default 10)', valueDescription: 'n'})),
  baseDelayMs: z
    .string()
    .optional()
    .describe(option({description: 'First retry delay, doubled each time (default 1000)', valueDescription: 'ms'})),
  leaseSeconds: z
    .string()
    .optional()
    .describe(option({description: 'How long a claim keeps a table from other dispatchers (default 60)', valueDescription: 's'})),
  webhookTimeoutMs: z
    .string()
    .optional()
    .describe(option({description: 'A webhook that has not answered in this long failed (default 10000)', valueDescription: 'ms'})),
  ...rawFlag,
});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({options: flags}) => {
    const {dispatchEvents} = await import('../../../source/cli/gql/events.js');
    return dispatchEvents(flags);
  },
  {json: ({options: flags}) => flags.raw},
);
