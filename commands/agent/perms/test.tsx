import {z} from 'zod';
import {argument} from 'pastel';
import {textCommand} from '../../../source/cli/command-output.js';

export const description = 'Explain what the agent permission rules of .workbench.kdl say about a tool call (exit 0 allow, 1 deny, 2 ask)';

export const args = z.tuple([
  z.string().describe(argument({name: 'tool', description: 'read, edit, shell or workbench'})),
  z.string().describe(argument({name: 'argument', description: 'The path, the command line, or the workbench tool name (with its JSON arguments)'})),
]);

export const options = z.object({
  json: z.boolean().default(false).describe('Print JSON'),
});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [tool, text], options: flags}) => {
    const {permsTest} = await import('../../../source/cli/agent/perms-test.js');
    return permsTest(tool, text, {json: flags.json, cwd: process.cwd()});
  },
  {json: ({options: flags}) => flags.json},
);
