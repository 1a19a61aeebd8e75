import {z} from 'zod';
import {textCommand} from '../../source/cli/command-output.js';
import {readerFlags} from '../../source/cli/feeds/reader-flags.js';

export const description = 'List saved lists: visibility, item count, RSS URL of public ones (their articles: `articles list --list <id>`)';

export const options = z.object({...readerFlags});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({options: flags}) => {
    const {withReader, json, text} = await import('../../source/cli/feeds/reader-task.js');
    const {formatLists} = await import('../../source/cli/feeds/format.js');
    return withReader(flags, async (reader) => {
      const lists = await reader.listLists();
      return flags.json ? json(lists) : text(formatLists(lists));
    });
  },
  {json: ({options: flags}) => flags.json},
);
