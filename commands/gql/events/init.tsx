import {z} from 'zod';
import {option} from 'pastel';
import {textCommand} from '../../../source/cli/command-output.js';
import {rawFlag, settingsFlag} from '../../../source/cli/gql/gql-flags.js';

export const description = 'Create the outbox table with its column contract (named by --table, else the rules\u2019 outbox-table, else wb_outbox); --print shows the SQL instead';

export const options = z.object({
  ...settingsFlag,
  table: z
    .string()
    .optional()
    .describe(option({description: 'The outbox table, <table> or <schema>.<table>', valueDescription: 'name'})),
  print: z.boolean().default(false).describe('Print the SQL, change nothing'),
  ...rawFlag,
});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({options: flags}) => {
    const {initEvents} = await import('../../../source/cli/gql/events.js');
    return initEvents(flags);
  },
  {json: ({options: flags}) => flags.raw},
);
