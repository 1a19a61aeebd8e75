import {z} from 'zod';
import {argument} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';
import {readerFlags} from '../../source/cli/feeds/reader-flags.js';

export const description = 'Subscribe to every feed of an OPML file (what other readers export)';

export const args = z.tuple([z.string().describe(argument({name: 'file', description: 'OPML file, or - for stdin'}))]);

export const options = z.object({...readerFlags});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [file], options: flags}) => {
    const {withReader, json, text} = await import('../../source/cli/feeds/reader-task.js');
    const {formatImport} = await import('../../source/cli/feeds/format.js');
    const {readOpmlFile} = await import('../../source/cli/feeds/opml-file.js');
    const xml = await readOpmlFile(file);
    return withReader(flags, async (reader) => {
      const result = await reader.importOpml(xml);
      // Some feeds failed: the import is partial, and scripts should know.
      const exitCode = result.failed.length > 0 ? 1 : 0;
      if (flags.json) return {...json(result), exitCode};
      // Imported feeds wait for the poller; say how to get their articles now.
      const hint = result.added > 0 ? 'new feeds are fetched by `workbench serve reader`, or now with `workbench feeds refresh`\n' : undefined;
      return {...text(formatImport(result)), stderr: hint, exitCode};
    });
  },
  {json: ({options: flags}) => flags.json},
);
