import {z} from 'zod';
import {option} from 'pastel';
import {textCommand} from '../../../source/cli/command-output.js';
import {settingsFlag} from '../../../source/cli/gql/gql-flags.js';

export const description = "List the database's chat conversations (id, title, messages, last message), or one conversation's messages";

export const options = z.object({
  conversation: z
    .string()
    .optional()
    .describe(option({description: "Show this conversation's messages", valueDescription: 'id'})),
  ...settingsFlag,
  claims: z
    .string()
    .optional()
    .describe(option({description: 'As a user with these token claims (JSON object); always in-process', valueDescription: 'json'})),
  json: z.boolean().default(false).describe('Print JSON ({conversations: [{id, title, messages}]})'),
});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({options: flags}) => {
    const [{runGqlChatList}, {loadGqlSettings}, {openGqlService}] = await Promise.all([
      import('../../../source/cli/gql/chat.js'),
      import('../../../source/gql/settings/load-settings.js'),
      import('../../../source/gql/service.js'),
    ]);
    return runGqlChatList(flags, {loadSettings: (file) => loadGqlSettings({file}), openService: (settings) => openGqlService(settings)});
  },
  {json: ({options: flags}) => flags.json},
);
