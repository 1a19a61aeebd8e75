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
    const feedId = id === undefined ? undefined : parseId(id, 'feed id');
    return withReader(flags, async (reader) => {
      if (feedId !== undefined) {
        const result = await reader.refresh(feedId);
        return flags.json ? json({id: feedId, ...result}) : text(`feed ${feedId}: ${result.newArticles} new article${result.newArticles === 1 ? '' : 's'}`);
      }
      const results = await reader.refreshAll();
      const failed = results.flatMap((result) => ('error' in result ? [result] : []));
      if (flags.json) return {...json(results), exitCode: failed.length ? 1 : 0};
      const total = results.reduce((sum, result) => sum + ('newArticles' in result ? result.newArticles : 0), 0);
      const lines = [
        `${results.length} feed${results.length === 1 ? '' : 's'} refreshed: ${total} new article${total === 1 ? '' : 's'}`,
        ...failed.map((result) => `feed ${result.id}: ${result.error}`),
      ];
      return {...text(lines.join('\n')), exitCode: failed.length ? 1 : 0};
    });
  },
  {json: ({options: flags}) => flags.json},
);
