import {z} from 'zod';
import {argument} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';
import {readerFlags} from '../../source/cli/feeds/reader-flags.js';

export const description = 'Bring a snoozed article back to the unread list now';

export const args = z.tuple([z.string().describe(argument({name: 'id', description: 'Article id'}))]);

export const options = z.object({...readerFlags});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [id], options: flags}) => {
    const {withReader, parseId, json, text} = await import('../../source/cli/feeds/reader-task.js');
    const articleId = parseId(id, 'article id');
    return withReader(flags, async (reader) => {
      const article = await reader.snooze(articleId, null);
      return flags.json ? json(article) : text(`article ${article.id} unsnoozed: ${article.title || '(untitled)'}`);
    });
  },
  {json: ({options: flags}) => flags.json},
);
