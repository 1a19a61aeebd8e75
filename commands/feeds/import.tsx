import {z} from 'zod';
import {argument} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';
import {readerFlags} from '../../source/feeds/client/reader-flags.js';

export const description = 'Subscribe to every feed of an OPML file (what other readers export)';

export const args = z.tuple([z.string().describe(argument({name: 'file', description: 'OPML file, or - for stdin'}))]);

export const options = z.object({...readerFlags});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [file], options: flags}) => {
    const {withReader, json, text} = await import('../../source/feeds/client/reader-task.js');
    const {formatImport} = await import('../../source/feeds/client/format.js');
    const {readOpmlFile} = await import('../../source/feeds/client/opml-file.js');
    const xml = await readOpmlFile(file);
    return withReader(flags, async (reader) => {
      const result = await reader.importOpml(xml);
      return flags.json ? json(result) : text(formatImport(result));
    });
  },
  {json: ({options: flags}) => flags.json},
);
