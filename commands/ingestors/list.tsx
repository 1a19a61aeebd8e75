import {z} from 'zod';
import {textCommand} from '../../source/cli/command-output.js';
import {readerFlags} from '../../source/cli/feeds/reader-flags.js';

export const description = 'List ingestors: kind, status (and why, when not ok), pending digests, next fetch';

export const options = z.object({...readerFlags});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({options: flags}) => {
    const {withReader, json, text} = await import('../../source/cli/feeds/reader-task.js');
    const {formatIngestors} = await import('../../source/cli/ingestors/format.js');
    return withReader(flags, async (reader) => {
      const ingestors = await reader.listIngestors();
      return flags.json ? json(ingestors) : text(formatIngestors(ingestors));
    });
  },
  {json: ({options: flags}) => flags.json},
);
