import {z} from 'zod';
import {argument, option} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';
import {readerFlags} from '../../source/cli/feeds/reader-flags.js';

export const description = 'Subscribe to a feed (or a page that links one); a page linking several lists them to choose from';

export const args = z.tuple([z.string().describe(argument({name: 'url', description: 'Feed or page URL (http or https)'}))]);

export const options = z.object({
  category: z
    .string()
    .optional()
    .describe(option({description: 'File the feed under a category', valueDescription: 'name'})),
  ...readerFlags,
});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [url], options: flags}) => {
    const {withReader, feedUrlArgument, json, text} = await import('../../source/cli/feeds/reader-task.js');
    const {formatDiscovered} = await import('../../source/cli/feeds/format.js');
    const address = feedUrlArgument(url);
    return withReader(flags, async (reader) => {
      const result = await reader.subscribe(address, flags.category ? {category: flags.category} : undefined);
      if ('choices' in result) {
        if (flags.json) return json({feeds: result.choices});
        return text(`that page links ${result.choices.length} feeds; add one of them by its URL:\n\n${formatDiscovered(result.choices)}`);
      }
      const feed = result.feed;
      return flags.json ? json(feed) : text(`subscribed: feed ${feed.id} "${feed.title || feed.url}" · ${feed.unreadCount} unread · ${feed.url}`);
    });
  },
  {json: ({options: flags}) => flags.json},
);
