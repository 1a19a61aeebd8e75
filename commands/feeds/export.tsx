import {z} from 'zod';
import {option} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';
import {readerFlags} from '../../source/cli/feeds/reader-flags.js';

export const description = 'Print every subscription as OPML (to move to another reader, or back up)';

const {json: _json, ...connection} = readerFlags;
export const options = z.object({
  output: z
    .string()
    .optional()
    .describe(option({description: 'Write to a file instead of stdout', valueDescription: 'file'})),
  ...connection,
});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(async ({options: flags}) => {
  const {withReader, data} = await import('../../source/cli/feeds/reader-task.js');
  const {writeOpmlFile} = await import('../../source/cli/feeds/opml-file.js');
  return withReader(flags, async (reader) => {
    const xml = await reader.exportOpml();
    if (!flags.output) return data(xml);
    await writeOpmlFile(flags.output, xml);
    return {stderr: `wrote ${flags.output}\n`};
  });
});
