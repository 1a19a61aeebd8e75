import {z} from 'zod';
import {argument, option} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';
import {settingsFlag} from '../../source/cli/gql/gql-flags.js';

export const description =
  'Run a GraphQL query: against the running `serve graphql` of the same settings (when it checks no tokens, or $WORKBENCH_GQL_TOKEN is set), else in-process — the same JSON either way; prints the data, errors one per line, exit 1 on errors';

export const args = z.tuple([z.string().describe(argument({name: 'query', description: 'The GraphQL document, e.g. "{ artist(limit: 5) { data { name } } }"'}))]);

export const options = z.object({
  variables: z
    .string()
    .optional()
    .describe(option({description: 'Variables as a JSON object', valueDescription: 'json'})),
  ...settingsFlag,
  claims: z
    .string()
    .optional()
    .describe(option({description: 'Run as a user with these token claims (JSON object); always in-process, never sent to a server', valueDescription: 'json'})),
  raw: z.boolean().default(false).describe('Print the result exactly as JSON ({data, errors, extensions})'),
});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [query], options: flags}) => {
    const [{runGqlQuery}, {loadGqlSettings}, {openGqlService}] = await Promise.all([
      import('../../source/cli/gql/query-task.js'),
      import('../../source/gql/settings/load-settings.js'),
      import('../../source/gql/service.js'),
    ]);
    return runGqlQuery(query, flags, {loadSettings: (file) => loadGqlSettings({file}), openService: (settings) => openGqlService(settings)});
  },
  {json: ({options: flags}) => flags.raw},
);
