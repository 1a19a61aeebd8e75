import {z} from 'zod';
import {argument} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';
import {readerFlags} from '../../source/cli/feeds/reader-flags.js';
import {definitionFlags} from '../../source/cli/ingestors/definition-flags.js';

export const description = 'Add an ingestor: `add mastodon --config \'{"instance": "https://mastodon.social", "hashtag": "rust"}\'`';

export const args = z.tuple([z.string().describe(argument({name: 'kind', description: 'kind_1 (mastodon), kind_2 (bluesky) or kind_3 (reddit)'}))]);

export const options = z.object({...definitionFlags, ...readerFlags});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [kind], options: flags}) => {
    const {withReader, json, text} = await import('../../source/cli/feeds/reader-task.js');
    const {definition} = await import('../../source/cli/ingestors/definition-flags.js');
    const {formatIngestor} = await import('../../source/cli/ingestors/format.js');
    const input = definition(kind, flags);
    return withReader(flags, async (reader) => {
      const made = await reader.createIngestor(input);
      return flags.json ? json(made) : text(formatIngestor(made, 'added'));
    });
  },
  {json: ({options: flags}) => flags.json},
);
