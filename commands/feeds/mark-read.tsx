import {z} from 'zod';
import {argument} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';
import {readerFlags} from '../../source/cli/feeds/reader-flags.js';

export const description = 'Mark every article of a feed read';

export const args = z.tuple([z.string().describe(argument({name: 'id', description: 'Feed id'}))]);

export const options = z.object({...readerFlags});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [id], options: flags}) => {
    const {withReader, parseId, json, text} = await import('../../source/cli/feeds/reader-task.js');
    const feedId = parseId(id, 'feed id');
    return withReader(flags, async (reader) => {
      const result = await reader.markAllRead(feedId);
      return flags.json ? json({id: feedId, ...result}) : text(`feed ${feedId}: ${result.marked} article${result.marked === 1 ? '' : 's'} marked read`);
    });
  },
  {json: ({options: flags}) => flags.json},
);
