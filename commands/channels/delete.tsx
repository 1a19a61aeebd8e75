import {z} from 'zod';
import {argument} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';
import {gatewayFlags, tokenFlag} from '../../source/cli/gateway/gateway-flags.js';

export const description = 'Delete a channel and its items (its feed then answers 404)';

export const args = z.tuple([z.string().describe(argument({name: 'id', description: 'Channel id'}))]);

export const options = z.object({...tokenFlag, ...gatewayFlags});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [id], options: flags}) => {
    const {withGateway, required, channelId, json, text} = await import('../../source/cli/gateway/gateway-task.js');
    const channel = channelId(id);
    const token = required(flags.token, '--token', 'deleting a channel');
    return withGateway(flags, async (gateway) => {
      await gateway.deleteChannel(channel, token);
      return flags.json ? json({ok: true, id: channel}) : text(`deleted channel ${channel}`);
    });
  },
  {json: ({options: flags}) => flags.json},
);
