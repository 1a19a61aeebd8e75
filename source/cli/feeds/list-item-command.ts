import {z} from 'zod';
import {argument} from 'pastel';
import {textCommand} from '../command-output.js';
import {readerFlags} from './reader-flags.js';

/** `lists add <list> <article>` and `lists remove <list> <article>` differ only in the direction. */
export function listItemCommand(action: 'add' | 'remove') {
  const args = z.tuple([z.string().describe(argument({name: 'listId', description: 'List id'})), z.string().describe(argument({name: 'articleId', description: 'Article id'}))]);
  const options = z.object({...readerFlags});
  type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};
  const Component = textCommand<Props>(
    async ({args: [listText, articleText], options: flags}) => {
      const {withReader, parseId, json, text} = await import('./reader-task.js');
      const {formatList} = await import('./format.js');
      const listId = parseId(listText, 'list id');
      const articleId = parseId(articleText, 'article id');
      return withReader(flags, async (reader) => {
        const list = action === 'add' ? await reader.addToList(listId, articleId) : await reader.removeFromList(listId, articleId);
        return flags.json ? json(list) : text(`article ${articleId} ${action === 'add' ? 'saved to' : 'removed from'} ${formatList(list)}`);
      });
    },
    {json: ({options: flags}) => flags.json},
  );
  const description = action === 'add' ? 'Save an article to a list' : 'Remove an article from a list';
  return {description, args, options, Component};
}
