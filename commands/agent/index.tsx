import {z} from 'zod';
import {argument, option} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';

export const description =
  'Run the agent loop against a model endpoint: read and edit files, run commands, and use the workbench tools (get_errors, proc, …); without a prompt on a terminal, chat';

export const args = z.tuple([
  z
    .string()
    .optional()
    .describe(argument({name: 'prompt', description: 'What to do, e.g. "why does npm test fail?"; omitted on a terminal: an interactive chat'})),
]);

export const options = z.object({
  api: z
    .string()
    .default('auto')
    .describe(option({description: 'Transport: auto (chat-completions with a browser sign-in, else messages), messages or chat-completions', valueDescription: 'api'})),
  baseUrl: z
    .string()
    .optional()
    .describe(option({description: 'API base: without the version segment for messages (/v1/messages is added), with it for chat-completions', valueDescription: 'url'})),
  model: z
    .string()
    .optional()
    .describe(option({description: "Model name (default: the transport's, see the README)", valueDescription: 'name'})),
  oauthProvider: z
    .string()
    .optional()
    .describe(option({description: 'Use this browser sign-in (`workbench connect`); needed when there are several', valueDescription: 'name'})),
  apiKey: z
    .string()
    .optional()
    .describe(option({description: 'The API key (first in the credential order; visible to other users in `ps`: prefer MESSAGES_API_KEY)', valueDescription: 'key'})),
  credentialDiscovery: z
    .boolean()
    .default(true)
    .describe("Look for keys in .env.local and other tools' stores (--no-credential-discovery: environment, argument and sign-in only)"),
  maxTurns: z
    .string()
    .optional()
    .describe(option({description: 'Model requests per message before stopping (default 20)', valueDescription: 'n'})),
  yes: z.boolean().default(false).describe('Allow what would be asked (deny rules of .workbench.kdl still refuse)'),
  json: z.boolean().default(false).describe('Print the transcript as JSON lines, one row each'),
});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [prompt], options: flags}) => {
    if (prompt === undefined) {
      const {runAgentChat} = await import('../../source/cli/agent/agent-chat.js');
      return runAgentChat(flags);
    }
    const {runAgentPrompt} = await import('../../source/cli/agent/agent-task.js');
    return runAgentPrompt(prompt, flags);
  },
  {json: ({options: flags}) => flags.json},
);
