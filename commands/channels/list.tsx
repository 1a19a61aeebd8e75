import {z} from 'zod';
import {textCommand} from '../../source/cli/command-output.js';
import {gatewayFlags} from '../../source/cli/gateway/gateway-flags.js';

export const description = 'List the gateway’s live channels: items, expiry, feed URL';

export const options = z.object({...gatewayFlags});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({options: flags}) => {
    const {withGateway, json, text} = await import('../../source/cli/gateway/gateway-task.js');
    const {formatChannels} = await import('../../source/cli/gateway/format.js');
    return withGateway(flags, async (gateway) => {
      const channels = await gateway.listChannels();
      return flags.json ? json(channels) : text(formatChannels(channels));
    });
  },
  {json: ({options: flags}) => flags.json},
);
