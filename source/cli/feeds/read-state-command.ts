import {z} from 'zod';
import {argument} from 'pastel';
import {textCommand} from '../command-output.js';
import {readerFlags} from './reader-flags.js';

/** `articles read <id>` and `articles unread <id>` differ only in the state they set. */
export function readStateCommand(read: boolean) {
  const args = z.tuple([z.string().describe(argument({name: 'id', description: 'Article id'}))]);
  const options = z.object({...readerFlags});
  type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};
  const Component = textCommand<Props>(
    async ({args: [id], options: flags}) => {
      const {withReader, parseId, json, text} = await import('./reader-task.js');
      const articleId = parseId(id, 'article id');
      return withReader(flags, async (reader) => {
        const article = await reader.setRead(articleId, read);
        return flags.json ? json(article) : text(`article ${article.id} marked ${read ? 'read' : 'unread'}: ${article.title || '(untitled)'}`);
      });
    },
    {json: ({options: flags}) => flags.json},
  );
  return {description: read ? 'Mark an article read' : 'Mark an article unread', args, options, Component};
}
