import {z} from 'zod';
import {textCommand} from '../../source/cli/command-output.js';
import {readerFlags} from '../../source/cli/feeds/reader-flags.js';

export const description = 'List subscriptions: unread count, fetch status, last success, last error';

export const options = z.object({...readerFlags});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({options: flags}) => {
    const {withReader, json, text} = await import('../../source/cli/feeds/reader-task.js');
    const {formatFeeds} = await import('../../source/cli/feeds/format.js');
    return withReader(flags, async (reader) => {
      const feeds = await reader.listFeeds();
      return flags.json ? json(feeds) : text(formatFeeds(feeds));
    });
  },
  {json: ({options: flags}) => flags.json},
);
