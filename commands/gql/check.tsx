import {z} from 'zod';
import {textCommand} from '../../source/cli/command-output.js';
import {rawFlag, settingsFlag} from '../../source/cli/gql/gql-flags.js';

export const description = 'Load the GraphQL settings and model, and list every problem of the metadata rules at once (exit 1 if any)';

export const options = z.object({...settingsFlag, ...rawFlag});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({options: flags}) => {
    const {checkGqlSettings} = await import('../../source/gql/check/check-settings.js');
    const {formatCheckReport} = await import('../../source/cli/gql/format.js');
    const {json, text} = await import('../../source/cli/command-result.js');
    const report = await checkGqlSettings({file: flags.settings});
    const result = flags.raw ? json(report) : text(formatCheckReport(report));
    return {...result, exitCode: report.problems.length > 0 ? 1 : 0};
  },
  {json: ({options: flags}) => flags.raw},
);
