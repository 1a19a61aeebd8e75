import {z} from 'zod';
import {option} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';
import {settingsFlag} from '../../source/cli/gql/gql-flags.js';

export const description =
  'Serve GraphQL over a database (GqlService:Path, default /graphql) and the GraphiQL playground (GqlService:Playground, default /) until Ctrl-C; settings from appsettings.json';

export const options = z.object({
  ...settingsFlag,
  port: z
    .string()
    .default('7702')
    .describe(option({description: 'Port to listen on (0: any free port)', valueDescription: 'n'})),
  host: z
    .string()
    .default('127.0.0.1')
    .describe(option({description: 'Address to bind (another than loopback lets others reach your database through it)', valueDescription: 'address'})),
});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(async ({options: flags}) => {
  const [{runGraphqlServer}, {openGqlService}] = await Promise.all([import('../../servers/graphql/main.js'), import('../../source/gql/service.js')]);
  return runGraphqlServer(flags, (settings) => openGqlService(settings));
});
