import {z} from 'zod';
import {argument} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';
import {readerFlags} from '../../source/cli/feeds/reader-flags.js';

export const description = 'Unsubscribe from a feed (its articles go with it)';

export const args = z.tuple([z.string().describe(argument({name: 'id', description: 'Feed id (see `feeds list`)'}))]);

export const options = z.object({...readerFlags});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [id], options: flags}) => {
    const {withReader, parseId, json, text} = await import('../../source/cli/feeds/reader-task.js');
    const feedId = parseId(id, 'feed id');
    return withReader(flags, async (reader) => {
      const feed = await reader.getFeed(feedId);
      await reader.unsubscribe(feedId);
      return flags.json ? json({removed: feed.id}) : text(`removed feed ${feed.id} "${feed.title || feed.url}"`);
    });
  },
  {json: ({options: flags}) => flags.json},
);
