import {z} from 'zod';
import {argument} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';
import {gatewayFlags} from '../../source/cli/gateway/gateway-flags.js';

export const description = 'One proxied feed’s poll status, read from the store (the origin is not contacted)';

export const args = z.tuple([z.string().describe(argument({name: 'name', description: 'Feed name'}))]);

export const options = z.object({...gatewayFlags});

type Props = {args: z.infer<typeof args>; options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({args: [name], options: flags}) => {
    const {withGateway, feedName, json, text} = await import('../../source/cli/gateway/gateway-task.js');
    const {formatGatewayFeed} = await import('../../source/cli/gateway/format.js');
    const feed = feedName(name);
    return withGateway(flags, async (gateway) => {
      const status = await gateway.feedStatus(feed);
      return flags.json ? json(status) : text(formatGatewayFeed(status));
    });
  },
  {json: ({options: flags}) => flags.json},
);
