import {z} from 'zod';
import {argument} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';
import {readerFlags} from '../../source/cli/feeds/reader-flags.js';

export const description = 'Create a list; --public shares it as RSS at a secret URL';

export const args = z.tuple([z.string().describe(argument({name: 'title', description: 'List title'}))]);

export const options = z.object({
  public: z.boolean().default(false).describe('Share the list as RSS (anyone with its URL can read it)'),
  ...readerFlags,
});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [title], options: flags}) => {
    const {withReader, json, text} = await import('../../source/cli/feeds/reader-task.js');
    const {formatList} = await import('../../source/cli/feeds/format.js');
    const {WorkbenchError} = await import('../../source/core/errors.js');
    if (!title.trim()) throw new WorkbenchError('invalid_argument', 'a list needs a title');
    return withReader(flags, async (reader) => {
      const list = await reader.createList(title.trim(), flags.public ? 'public' : 'private');
      return flags.json ? json(list) : text(`created ${formatList(list)}`);
    });
  },
  {json: ({options: flags}) => flags.json},
);
