import {z} from 'zod';
import {argument} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';
import {readerFlags} from '../../source/cli/feeds/reader-flags.js';

export const description = 'Poll a feed now (every feed when no id is given) and count the new articles';

export const args = z.tuple([
  z
    .string()
    .optional()
    .describe(argument({name: 'id', description: 'Feed id; all feeds when left out'})),
]);

export const options = z.object({...readerFlags});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [id], options: flags}) => {
    const {withReader, parseId, json, text} = await import('../../source/cli/feeds/reader-task.js');
    const {describeError} = await import('../../source/core/errors.js');
    const feedId = id === undefined ? undefined : parseId(id, 'feed id');
    return withReader(flags, async (reader) => {
      if (feedId !== undefined) {
        const result = await reader.refresh(feedId);
        return flags.json ? json({id: feedId, ...result}) : text(`feed ${feedId}: ${result.newArticles} new article${result.newArticles === 1 ? '' : 's'}`);
      }
      // One at a time: the reader limits fetches per host anyway, and a failing feed must not stop the rest.
      const results: Array<{id: number; newArticles?: number; error?: string}> = [];
      for (const feed of await reader.listFeeds()) {
        try {
          results.push({id: feed.id, ...(await reader.refresh(feed.id))});
        } catch (error) {
          results.push({id: feed.id, error: describeError(error)});
        }
      }
      const failed = results.filter((result) => result.error);
      if (flags.json) return {...json(results), exitCode: failed.length ? 1 : 0};
      const total = results.reduce((sum, result) => sum + (result.newArticles ?? 0), 0);
      const lines = [
        `${results.length} feed${results.length === 1 ? '' : 's'} refreshed: ${total} new article${total === 1 ? '' : 's'}`,
        ...failed.map((result) => `feed ${result.id}: ${result.error}`),
      ];
      return {...text(lines.join('\n')), exitCode: failed.length ? 1 : 0};
    });
  },
  {json: ({options: flags}) => flags.json},
);
