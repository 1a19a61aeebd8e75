import {z} from 'zod';
import {option} from 'pastel';
import {textCommand} from '../source/cli/command-output.js';

export const description = 'Errors and warnings from every process and proxy, deduplicated, errors first (the get_errors tool)';

export const options = z.object({
  processId: z
    .string()
    .optional()
    .describe(option({description: 'Restrict to one process', valueDescription: 'id'})),
  proxyId: z
    .string()
    .optional()
    .describe(option({description: 'Restrict to one proxy', valueDescription: 'id'})),
  since: z
    .string()
    .optional()
    .describe(option({description: 'Only newer than a duration (30s, 5m, 1h) or an RFC 3339 time', valueDescription: 'when'})),
  warnings: z.boolean().default(true).describe('Include warnings (--no-warnings: errors only)'),
  limit: z
    .string()
    .optional()
    .describe(option({description: 'Maximum entries (default 25)', valueDescription: 'n'})),
  raw: z.boolean().default(false).describe('Print the JSON array of unified error objects'),
  json: z.boolean().default(false).describe('The same as --raw, as in the other commands'),
  daemon: z.boolean().default(true).describe('Ask the daemon (--no-daemon: legacy mode, proxy errors only)'),
});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({options: flags}) => {
    const {runToolCommand} = await import('../source/cli/tool-command.js');
    const {parseLimit} = await import('../source/core/parse-number.js');
    const query = {
      process_id: flags.processId,
      proxy_id: flags.proxyId,
      since: flags.since,
      include_warnings: flags.warnings,
      limit: parseLimit(flags.limit, '--limit'),
      raw: flags.raw || flags.json,
    };
    return runToolCommand('get_errors', query, {json: flags.raw || flags.json, noDaemon: !flags.daemon});
  },
  {json: ({options: flags}) => flags.raw || flags.json},
);
