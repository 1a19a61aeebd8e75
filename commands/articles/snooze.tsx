import {z} from 'zod';
import {argument, option} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';
import {readerFlags} from '../../source/cli/feeds/reader-flags.js';

export const description = 'Hide an article from the unread list until a time (`articles unsnooze` brings it back now)';

export const args = z.tuple([z.string().describe(argument({name: 'id', description: 'Article id'}))]);

export const options = z.object({
  until: z.string().describe(option({description: 'An ISO 8601 time, a duration from now (30m, 1h, 2d) or "tomorrow" (08:00)', valueDescription: 'when'})),
  ...readerFlags,
});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [id], options: flags}) => {
    const {withReader, parseId, json, text} = await import('../../source/cli/feeds/reader-task.js');
    const {parseUntil} = await import('../../source/feeds/until.js');
    const {formatDate} = await import('../../source/text/table.js');
    const articleId = parseId(id, 'article id');
    const until = parseUntil(flags.until);
    return withReader(flags, async (reader) => {
      const article = await reader.snooze(articleId, until);
      return flags.json ? json(article) : text(`article ${article.id} snoozed until ${formatDate(article.snoozedUntil ?? until)}: ${article.title || '(untitled)'}`);
    });
  },
  {json: ({options: flags}) => flags.json},
);
