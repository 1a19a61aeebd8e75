import {z} from 'zod';
import {argument, option} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';
import {readerFlags} from '../../source/cli/feeds/reader-flags.js';

export const description = 'Print an article: its fields (enclosures: its media files), then its content as text (--json: the full record with its HTML)';

export const args = z.tuple([z.string().describe(argument({name: 'id', description: 'Article id'}))]);

export const options = z.object({
  width: z
    .string()
    .optional()
    .describe(option({description: 'Wrap the text at this many columns (default: the terminal’s, else 80)', valueDescription: 'n'})),
  ...readerFlags,
});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [id], options: flags}) => {
    const {withReader, parseId, json, text} = await import('../../source/cli/feeds/reader-task.js');
    const {parseLimit} = await import('../../source/core/parse-number.js');
    const articleId = parseId(id, 'article id');
    const width = parseLimit(flags.width, '--width') ?? (process.stdout.isTTY ? process.stdout.columns : 80);
    return withReader(flags, async (reader) => {
      const article = await reader.getArticle(articleId);
      const {articleView} = await import('../../source/feeds/article-text.js');
      const {enclosuresOf} = await import('../../source/feeds/enclosure-text.js');
      // A reader server from before enclosures leaves the field out: --json says none, not nothing.
      if (flags.json) return json({...article, enclosures: enclosuresOf(article)});
      const feed = await reader.getFeed(article.feedId).catch(() => undefined);
      const view = articleView(article, feed, width);
      return text([...view.header, '', ...view.body].join('\n'));
    });
  },
  {json: ({options: flags}) => flags.json},
);
