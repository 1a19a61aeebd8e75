import {z} from 'zod';
import {textCommand} from '../../source/cli/command-output.js';
import {gatewayFlags} from '../../source/cli/gateway/gateway-flags.js';

export const description = 'List the proxied feeds: origin, items, stale marker, last success and failure, next poll';

export const options = z.object({...gatewayFlags});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({options: flags}) => {
    const {withGateway, json, text} = await import('../../source/cli/gateway/gateway-task.js');
    const {formatGatewayFeeds} = await import('../../source/cli/gateway/format.js');
    return withGateway(flags, async (gateway) => {
      const feeds = await gateway.listFeeds();
      return flags.json ? json(feeds) : text(formatGatewayFeeds(feeds));
    });
  },
  {json: ({options: flags}) => flags.json},
);
