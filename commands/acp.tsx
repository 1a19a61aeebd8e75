import {z} from 'zod';
import {argument, option} from 'pastel';
import {textCommand} from '../source/cli/command-output.js';
import type {PermitFactory} from '../source/cli/acp-command.js';
import type {Permit} from '../source/agent/types.js';

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

/**
 * THE place where the project's permission rules plug in: at merge this becomes
 * `createPermit({rules, yes: autoApprove, ask})` from source/agent/permissions/permit.ts.
 * Until then: --auto-approve allows, otherwise the user is asked, and without a terminal (or with --no-ui) it refuses.
 */
const commandPermit: PermitFactory = ({autoApprove, ask, askRefusal}): Permit => {
  const always = new Set<string>();
  return async ({tool, argument: subject, preview}) => {
    const key = `${tool}\0${subject}`;
    if (autoApprove) return {allowed: true, decision: {action: 'allow', rule: null, reason: 'allowed by --auto-approve'}};
    if (always.has(key)) return {allowed: true, decision: {action: 'allow', rule: null, reason: 'allowed: you said always for this session'}};
    if (!ask) return {allowed: false, decision: {action: 'deny', rule: null, reason: `not asked: ${askRefusal}`}};
    const answer = await ask({tool, argument: subject, preview, decision: {action: 'ask', rule: null, reason: 'no rule names it'}});
    if (answer === 'always') always.add(key);
    const allowed = answer !== 'deny';
    return {allowed, decision: {action: allowed ? 'allow' : 'deny', rule: null, reason: allowed ? `allowed by you (${answer})` : 'refused by you'}};
  };
};

export default textCommand<Props>(
  async ({args: [prompt], options: flags}) => {
    const {runAcpCommand} = await import('../source/cli/acp-command.js');
    return runAcpCommand({prompt, ...flags}, commandPermit);
  },
  {json: ({options: flags}) => flags.json},
);
