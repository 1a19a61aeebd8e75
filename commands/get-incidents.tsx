import {z} from 'zod';
import {option} from 'pastel';
import {textCommand} from '../source/cli/command-output.js';

export const description = 'The error inbox as incidents labelled <severity>:<kind> (the get_incidents tool)';

export const options = z.object({
  id: z
    .string()
    .optional()
    .describe(option({description: 'One incident, whole', valueDescription: 'id'})),
  unread: z.boolean().default(false).describe('Only incidents not marked read (or that recurred since)'),
  markRead: z.boolean().default(false).describe('Mark the incidents shown as read'),
  limit: z
    .string()
    .optional()
    .describe(option({description: 'Maximum incidents (default 50)', valueDescription: 'n'})),
  raw: z.boolean().default(false).describe('Print the JSON array of incidents'),
  json: z.boolean().default(false).describe('The same as --raw'),
  daemon: z.boolean().default(true).describe('Ask the daemon (--no-daemon: legacy mode)'),
});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({options: flags}) => {
    const {runToolCommand} = await import('../source/cli/tool-command.js');
    const {parseLimit} = await import('../source/core/parse-number.js');
    const json = flags.raw || flags.json;
    const args = {id: flags.id, unread: flags.unread, mark_read: flags.markRead, limit: parseLimit(flags.limit, '--limit'), raw: json};
    return runToolCommand('get_incidents', args, {json, noDaemon: !flags.daemon});
  },
  {json: ({options: flags}) => flags.raw || flags.json},
);
