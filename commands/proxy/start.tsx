import {z} from 'zod';
import {argument, option} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';

export const description = 'Start a dev proxy in front of a dev server; its pages report errors to get-errors';

export const args = z.tuple([z.string().describe(argument({name: 'id', description: 'Proxy id'}))]);

export const options = z.object({
  target: z
    .string()
    .optional()
    .describe(option({description: 'The dev server, e.g. http://127.0.0.1:3000', valueDescription: 'url'})),
  port: z
    .string()
    .optional()
    .describe(option({description: 'Port to listen on (default: a free one)', valueDescription: 'n'})),
  nextFree: z.boolean().default(false).describe('Take the next free port above --port when it is taken'),
  logSize: z
    .string()
    .optional()
    .describe(option({description: 'Traffic-log entries kept (default 1000)', valueDescription: 'n'})),
  json: z.boolean().default(false).describe('Print the proxy as JSON'),
});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [id], options: flags}) => {
    const {runToolCommand} = await import('../../source/cli/tool-command.js');
    const {parseInteger} = await import('../../source/core/parse-number.js');
    // An explicit --target wins; without one, the target .workbench.kdl declares for this id.
    let target = flags.target;
    if (target === undefined) {
      const {declaredProxyTarget} = await import('../../source/project/proxy-target.js');
      const declared = await declaredProxyTarget(process.cwd(), id);
      if (!declared.target) {
        const {WorkbenchError} = await import('../../source/core/errors.js');
        throw new WorkbenchError('invalid_argument', `--target is required: ${declared.missing}; e.g. workbench proxy start ${id} --target http://127.0.0.1:3000`);
      }
      target = declared.target;
    }
    const args = {
      action: 'start',
      id,
      target,
      port: parseInteger(flags.port, '--port'),
      next_free: flags.nextFree,
      log_size: parseInteger(flags.logSize, '--log-size'),
    };
    return runToolCommand('proxy', args, {json: flags.json, select: (result: {proxy: unknown}) => result.proxy});
  },
  {json: ({options: flags}) => flags.json},
);
