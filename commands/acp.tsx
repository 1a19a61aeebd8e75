import {z} from 'zod';
import {argument, option} from 'pastel';
import {textCommand} from '../source/cli/command-output.js';

export const description = 'Send a prompt to an external agent over ACP (it signs in to its own service; workbench holds no key)';

export const args = z.tuple([
  z
    .string()
    .optional()
    .describe(argument({name: 'prompt', description: 'What to ask the agent'})),
]);

export const options = z.object({
  agent: z
    .string()
    .optional()
    .describe(option({description: 'The command that starts the agent, run without a shell ("gemini --experimental-acp")', valueDescription: 'command'})),
  ui: z.boolean().default(true).describe('Ask before the agent acts (--no-ui: plain rows, no questions; requests are refused unless --auto-approve)'),
  autoApprove: z.boolean().default(false).describe("Allow the agent's permission requests without asking"),
  connectTimeoutSeconds: z
    .string()
    .optional()
    .describe(option({description: 'Seconds the agent has to start and complete the ACP handshake (default 60)', valueDescription: 'seconds'})),
  showAgentLog: z.boolean().default(false).describe("Show the agent's stderr as transcript rows (where it reports its own sign-in failures)"),
  json: z.boolean().default(false).describe('Print the transcript as JSON lines, one row per line'),
});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [prompt], options: flags}) => {
    const {runAcpCommand} = await import('../source/cli/agent/acp-task.js');
    return runAcpCommand({prompt, ...flags});
  },
  {json: ({options: flags}) => flags.json},
);
