import {z} from 'zod';
import {argument, option} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';

export const description = "Run JavaScript in a proxy's connected page(s) and print the JSON value or the error";

export const args = z.tuple([z.string().describe(argument({name: 'id', description: 'Proxy id'}))]);

export const options = z.object({
  code: z
    .string()
    .optional()
    .describe(option({description: 'The code, e.g. "document.title" (a promise is awaited)', valueDescription: 'js'})),
  timeout: z
    .string()
    .optional()
    .describe(option({description: 'Milliseconds to wait for the page (default 5000)', valueDescription: 'ms'})),
  session: z
    .string()
    .optional()
    .describe(option({description: 'One page session (see workbench currentpage); every page when absent', valueDescription: 'id'})),
  json: z.boolean().default(false).describe('Print the results as JSON'),
});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [id], options: flags}) => {
    const {runToolCommand} = await import('../../source/cli/tool-command.js');
    const {parseLimit} = await import('../../source/core/parse-number.js');
    if (flags.code === undefined) {
      const {WorkbenchError} = await import('../../source/core/errors.js');
      throw new WorkbenchError('invalid_argument', `--code is required, e.g. workbench proxy exec ${id} --code "document.title"`);
    }
    const args = {action: 'exec', id, code: flags.code, session: flags.session, timeout_ms: parseLimit(flags.timeout, '--timeout')};
    // Code that threw is the command's failure (the proxy tool's `failure`): exit 1, the page's error in one line.
    return runToolCommand('proxy', args, {json: flags.json, select: (outcome: {results: unknown}) => outcome.results});
  },
  {json: ({options: flags}) => flags.json},
);
