import {z} from 'zod';
import {argument} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';
import {readerFlags} from '../../source/cli/feeds/reader-flags.js';

export const description = 'Delete a list (its articles stay in their feeds)';

export const args = z.tuple([z.string().describe(argument({name: 'id', description: 'List id'}))]);

export const options = z.object({...readerFlags});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [id], options: flags}) => {
    const {withReader, parseId, json, text} = await import('../../source/cli/feeds/reader-task.js');
    const listId = parseId(id, 'list id');
    return withReader(flags, async (reader) => {
      await reader.deleteList(listId);
      return flags.json ? json({deleted: listId}) : text(`deleted list ${listId}`);
    });
  },
  {json: ({options: flags}) => flags.json},
);
