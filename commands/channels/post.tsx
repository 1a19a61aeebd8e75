import {z} from 'zod';
import {argument, option} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';
import {gatewayFlags, tokenFlag} from '../../source/cli/gateway/gateway-flags.js';

export const description = 'Post an item to a channel (its feed shows it, newest first)';

export const args = z.tuple([z.string().describe(argument({name: 'id', description: 'Channel id'}))]);

export const options = z.object({
  ...tokenFlag,
  title: z
    .string()
    .optional()
    .describe(option({description: 'The item’s title (required)', valueDescription: 'text'})),
  link: z
    .string()
    .optional()
    .describe(option({description: 'Where the item points (http or https)', valueDescription: 'url'})),
  description: z
    .string()
    .optional()
    .describe(option({description: 'The item’s text', valueDescription: 'text'})),
  ...gatewayFlags,
});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [id], options: flags}) => {
    const {withGateway, required, channelId, linkUrl, json, text} = await import('../../source/cli/gateway/gateway-task.js');
    const channel = channelId(id);
    const token = required(flags.token, '--token', 'posting to a channel');
    const title = required(flags.title, '--title', 'an item');
    const link = flags.link === undefined ? undefined : linkUrl(flags.link);
    return withGateway(flags, async (gateway) => {
      await gateway.postItem(channel, token, {title, ...(link ? {link} : {}), ...(flags.description === undefined ? {} : {description: flags.description})});
      return flags.json ? json({ok: true}) : text(`posted to channel ${channel}: ${title}`);
    });
  },
  {json: ({options: flags}) => flags.json},
);
