import {z} from 'zod';
import {argument, option} from 'pastel';
import {textCommand} from '../../../source/cli/command-output.js';
import {settingsFlag} from '../../../source/cli/gql/gql-flags.js';

export const description = 'Approve a plan the chat proposed: its writes run as one transaction with your rules, and the approval is stored in the conversation';

export const args = z.tuple([z.string().describe(argument({name: 'plan', description: 'The plan id (from the plan row, or `gql chat list --conversation <id>`)'}))]);

export const options = z.object({
  ...settingsFlag,
  claims: z
    .string()
    .optional()
    .describe(option({description: 'Approve as a user with these token claims (JSON object); always in-process', valueDescription: 'json'})),
  json: z.boolean().default(false).describe('Print JSON ({approval})'),
});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [plan], options: flags}) => {
    const [{runGqlChatApprove}, {loadGqlSettings}, {openGqlService}] = await Promise.all([
      import('../../../source/cli/gql/chat.js'),
      import('../../../source/gql/settings/load-settings.js'),
      import('../../../source/gql/service.js'),
    ]);
    return runGqlChatApprove(plan, flags, {loadSettings: (file) => loadGqlSettings({file}), openService: (settings) => openGqlService(settings)});
  },
  {json: ({options: flags}) => flags.json},
);
