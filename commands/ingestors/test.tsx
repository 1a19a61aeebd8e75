import {z} from 'zod';
import {argument} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';
import {readerFlags} from '../../source/cli/feeds/reader-flags.js';
import {definitionFlags} from '../../source/cli/ingestors/definition-flags.js';

export const description = 'Run one fetch cycle, store nothing: kept and dropped statuses with their scores and the reasons behind them';

export const args = z.tuple([z.string().describe(argument({name: 'id|kind', description: 'A stored ingestor id, or a kind with --config'}))]);

export const options = z.object({...definitionFlags, ...readerFlags});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [target], options: flags}) => {
    const {withReader, parseId, json, text} = await import('../../source/cli/feeds/reader-task.js');
    const {definition} = await import('../../source/cli/ingestors/definition-flags.js');
    const {formatTest} = await import('../../source/cli/ingestors/format.js');
    const request = /^\d+$/.test(target.trim()) ? {id: parseId(target, 'ingestor id')} : definition(target, flags);
    return withReader(flags, async (reader) => {
      const result = await reader.testIngestor(request);
      return flags.json ? json(result) : text(formatTest(result));
    });
  },
  {json: ({options: flags}) => flags.json},
);
