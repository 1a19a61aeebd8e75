import {z} from 'zod';
import {argument, option} from 'pastel';
import {textCommand} from '../source/cli/command-output.js';

export const description = "A dev proxy's traffic log: requests, browser errors, diagnostics, page loads (the proxylog tool)";

export const args = z.tuple([z.string().describe(argument({name: 'proxy_id', description: 'Proxy id'}))]);

export const options = z.object({
  types: z
    .string()
    .optional()
    .describe(option({description: 'Entry types, comma-separated: http, error, custom, diagnostic, page', valueDescription: 'list'})),
  status: z
    .string()
    .optional()
    .describe(option({description: 'HTTP statuses, comma-separated, e.g. 404,500', valueDescription: 'list'})),
  since: z
    .string()
    .optional()
    .describe(option({description: 'Only newer than a duration (30s, 5m, 1h) or an RFC 3339 time', valueDescription: 'when'})),
  path: z
    .string()
    .optional()
    .describe(option({description: 'Only requests whose URL contains this text', valueDescription: 'text'})),
  limit: z
    .string()
    .optional()
    .describe(option({description: 'The newest N entries (default 100)', valueDescription: 'n'})),
  raw: z.boolean().default(false).describe('Print the JSON entries, with headers and bodies'),
  json: z.boolean().default(false).describe('The same as --raw, as in the other commands'),
});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [proxyId], options: flags}) => {
    const {runToolCommand} = await import('../source/cli/tool-command.js');
    const {parseLimit} = await import('../source/core/parse-number.js');
    const {parseStatusFlag, parseTypesFlag} = await import('../source/cli/proxy-flags.js');
    const query = {
      proxy_id: proxyId,
      types: parseTypesFlag(flags.types),
      status_codes: parseStatusFlag(flags.status),
      since: flags.since,
      path: flags.path,
      limit: parseLimit(flags.limit, '--limit'),
      raw: flags.raw || flags.json,
    };
    return runToolCommand('proxylog', query, {json: flags.raw || flags.json});
  },
  {json: ({options: flags}) => flags.raw || flags.json},
);
