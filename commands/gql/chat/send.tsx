import {z} from 'zod';
import {argument, option} from 'pastel';
import {textCommand} from '../../../source/cli/command-output.js';
import {settingsFlag} from '../../../source/cli/gql/gql-flags.js';

export const description =
  "Send a message to the database's chat (its chat connectors are the model's tools): tool rows and the answer as they come; a proposed plan is asked about on a terminal";

export const args = z.tuple([z.string().describe(argument({name: 'message', description: 'What to ask, e.g. "which albums sold best?"'}))]);

export const options = z.object({
  conversation: z
    .string()
    .optional()
    .describe(option({description: 'Continue this conversation (its id, printed after each answer)', valueDescription: 'id'})),
  ...settingsFlag,
  claims: z
    .string()
    .optional()
    .describe(option({description: 'Chat as a user with these token claims (JSON object); always in-process', valueDescription: 'json'})),
  json: z.boolean().default(false).describe('Print the transcript as JSON lines, one row each (plans wait for `gql chat approve`)'),
});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [message], options: flags}) => {
    const [{runGqlChatSend}, {loadGqlSettings}, {openGqlService}] = await Promise.all([
      import('../../../source/cli/gql/chat.js'),
      import('../../../source/gql/settings/load-settings.js'),
      import('../../../source/gql/service.js'),
    ]);
    return runGqlChatSend(message, flags, {loadSettings: (file) => loadGqlSettings({file}), openService: (settings) => openGqlService(settings)});
  },
  {json: ({options: flags}) => flags.json},
);
