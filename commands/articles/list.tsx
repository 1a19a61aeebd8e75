import {z} from 'zod';
import {option} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';
import {readerFlags} from '../../source/cli/feeds/reader-flags.js';

export const description = 'List articles newest first, a page at a time (the footer says how to get the next page)';

export const options = z.object({
  feed: z
    .string()
    .optional()
    .describe(option({description: 'Only this feed', valueDescription: 'id'})),
  list: z
    .string()
    .optional()
    .describe(option({description: 'Only articles saved to this list', valueDescription: 'id'})),
  category: z
    .string()
    .optional()
    .describe(option({description: 'Only articles with this category', valueDescription: 'name'})),
  unread: z.boolean().default(false).describe('Only unread articles (snoozed ones wait until their time)'),
  limit: z
    .string()
    .optional()
    .describe(option({description: 'Articles per page (default: the reader’s)', valueDescription: 'n'})),
  before: z
    .string()
    .optional()
    .describe(option({description: 'Page cursor: older than this time (from the footer or nextCursor)', valueDescription: 'time'})),
  beforeId: z
    .string()
    .optional()
    .describe(option({description: 'Page cursor: the id that goes with --before', valueDescription: 'id'})),
  ...readerFlags,
});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({options: flags}) => {
    const {withReader, parseId, json, text} = await import('../../source/cli/feeds/reader-task.js');
    const {parseLimit} = await import('../../source/core/parse-number.js');
    const {formatArticles} = await import('../../source/cli/feeds/format.js');
    const {WorkbenchError} = await import('../../source/core/errors.js');
    if ((flags.before === undefined) !== (flags.beforeId === undefined))
      throw new WorkbenchError('invalid_argument', '--before and --before-id go together (pass both from the last page’s cursor)');
    if (flags.before !== undefined && Number.isNaN(Date.parse(flags.before))) throw new WorkbenchError('invalid_argument', `--before: "${flags.before}" is not a time`);
    const query = {
      feed_id: flags.feed === undefined ? undefined : parseId(flags.feed, '--feed'),
      list_id: flags.list === undefined ? undefined : parseId(flags.list, '--list'),
      category: flags.category,
      unread: flags.unread || undefined,
      limit: parseLimit(flags.limit, '--limit'),
      before: flags.before,
      before_id: flags.beforeId === undefined ? undefined : parseId(flags.beforeId, '--before-id'),
    };
    return withReader(flags, async (reader) => {
      const page = await reader.listArticles(Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined)));
      if (flags.json) return json(page);
      return text(formatArticles(page, await reader.listFeeds()));
    });
  },
  {json: ({options: flags}) => flags.json},
);
