import {z} from 'zod';
import {argument} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';
import {readerFlags} from '../../source/cli/feeds/reader-flags.js';

export const description = 'Remove an ingestor (its feed and articles go with it)';

export const args = z.tuple([z.string().describe(argument({name: 'id', description: 'Ingestor id (see `ingestors list`)'}))]);

export const options = z.object({...readerFlags});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [id], options: flags}) => {
    const {withReader, parseId, json, text} = await import('../../source/cli/feeds/reader-task.js');
    const ingestorId = parseId(id, 'ingestor id');
    return withReader(flags, async (reader) => {
      const ingestor = await reader.getIngestor(ingestorId);
      await reader.deleteIngestor(ingestorId);
      return flags.json ? json({removed: ingestor.id}) : text(`removed ingestor ${ingestor.id} "${ingestor.title}" and its feed ${ingestor.feedId}`);
    });
  },
  {json: ({options: flags}) => flags.json},
);
