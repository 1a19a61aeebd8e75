import {z} from 'zod';
import {argument, option} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';

export const description = 'Parse a feed file or URL and print it as the reader would store it (when a feed looks wrong)';

export const args = z.tuple([z.string().describe(argument({name: 'file-or-url', description: 'A feed file, or an http(s) URL'}))]);

export const options = z.object({
  json: z
    .boolean()
    .default(false)
    .describe(option({description: 'Print the parsed feed as JSON'})),
});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [target], options: flags}) => {
    const {readFeedSource} = await import('../../source/feeds/parser/read-source.js');
    const {parseFeed} = await import('../../source/feeds/parser/parse-feed.js');
    const {formatParsedFeed} = await import('../../source/feeds/parser/format-text.js');
    const source = await readFeedSource(target);
    const feed = parseFeed(source.body, source.contentType, {url: source.url});
    return {stdout: flags.json ? `${JSON.stringify(feed, null, 2)}\n` : formatParsedFeed(feed)};
  },
  {json: ({options: flags}) => flags.json},
);
