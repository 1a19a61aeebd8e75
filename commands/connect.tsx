import {z} from 'zod';
import {option} from 'pastel';
import {textCommand} from '../source/cli/command-output.js';

export const description = 'Sign in with the browser (OAuth PKCE, loopback redirect) and store the token; default provider: the built-in gateway';

export const options = z.object({
  provider: z
    .string()
    .optional()
    .describe(option({description: 'Provider profile to sign in with (default gateway)', valueDescription: 'name'})),
  showExample: z.boolean().default(false).describe('Print an example provider profile (~/.config/workbench/oauth/<name>.json)'),
  list: z.boolean().default(false).describe('List providers and their stored sign-ins'),
  timeoutSeconds: z
    .string()
    .optional()
    .describe(option({description: 'How long to wait for the browser (default 300)', valueDescription: 'seconds'})),
  json: z.boolean().default(false).describe('Print the result as JSON'),
});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({options: flags}) => {
    const {runConnectCommand} = await import('../source/cli/agent/connect-command.js');
    return runConnectCommand(flags);
  },
  {json: ({options: flags}) => flags.json},
);
