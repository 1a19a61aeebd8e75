import {z} from 'zod';
import {argument} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';
import {readerFlags} from '../../source/cli/feeds/reader-flags.js';
import {definitionFlags} from '../../source/cli/ingestors/definition-flags.js';

export const description =
  'Change an ingestor: --interval, --digest, --threshold, --llm, a new --config, or fields of it with --set / --secret (its stored credentials are kept unless given)';

export const args = z.tuple([z.string().describe(argument({name: 'id', description: 'Ingestor id (see `ingestors list`)'}))]);

export const options = z.object({...definitionFlags, ...readerFlags});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [id], options: flags}) => {
    const {withReader, parseId, json, text} = await import('../../source/cli/feeds/reader-task.js');
    const {configFlag, fieldFlags} = await import('../../source/cli/ingestors/definition-flags.js');
    const {formatIngestor} = await import('../../source/cli/ingestors/format.js');
    const {WorkbenchError} = await import('../../source/core/errors.js');
    const ingestorId = parseId(id, 'ingestor id');
    const patch = fieldFlags(flags);
    const config = configFlag(flags);
    if (config === undefined && Object.keys(patch).length === 0)
      throw new WorkbenchError('invalid_argument', 'nothing to change: give --interval, --digest, --threshold, --llm, --config, --set or --secret');
    return withReader(flags, async (reader) => {
      if (config !== undefined) {
        // The stored credentials read "[redacted]": sent back as such, the reader keeps them.
        const current = await reader.getIngestor(ingestorId);
        const kept = Object.fromEntries(Object.entries(current.config).filter(([, value]) => value === '[redacted]'));
        patch.config = flags.config === undefined ? {...current.config, ...config} : {...kept, ...config};
      }
      const changed = await reader.updateIngestor(ingestorId, patch);
      return flags.json ? json(changed) : text(formatIngestor(changed, 'changed'));
    });
  },
  {json: ({options: flags}) => flags.json},
);
