import {z} from 'zod';
import {argument} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';
import {readerFlags} from '../../source/cli/feeds/reader-flags.js';

export const description = 'Show the feeds a URL offers (a feed itself, or those a page links), without subscribing';

export const args = z.tuple([z.string().describe(argument({name: 'url', description: 'Page or feed URL (http or https)'}))]);

export const options = z.object({...readerFlags});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [url], options: flags}) => {
    const {withReader, feedUrlArgument, json, text} = await import('../../source/cli/feeds/reader-task.js');
    const {formatDiscovered} = await import('../../source/cli/feeds/format.js');
    const address = feedUrlArgument(url);
    return withReader(flags, async (reader) => {
      const feeds = await reader.discover(address);
      return flags.json ? json(feeds) : text(formatDiscovered(feeds));
    });
  },
  {json: ({options: flags}) => flags.json},
);
