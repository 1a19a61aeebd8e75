import {z} from 'zod';
import {option} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';
import {gatewayFlags} from '../../source/cli/gateway/gateway-flags.js';

export const description = 'Create a channel: prints its feed URL, expiry and write token (shown once: keep it)';

export const options = z.object({
  title: z
    .string()
    .optional()
    .describe(option({description: 'The channel’s title (required)', valueDescription: 'text'})),
  description: z
    .string()
    .optional()
    .describe(option({description: 'What the channel is about', valueDescription: 'text'})),
  ttlHours: z
    .string()
    .optional()
    .describe(option({description: 'Hours until it expires (default 168, clamped to 1-720)', valueDescription: 'n'})),
  ...gatewayFlags,
});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({options: flags}) => {
    const {withGateway, required, json, text} = await import('../../source/cli/gateway/gateway-task.js');
    const {formatCreatedChannel} = await import('../../source/cli/gateway/format.js');
    const {parseInteger} = await import('../../source/core/parse-number.js');
    const title = required(flags.title, '--title', 'a channel');
    const ttlHours = parseInteger(flags.ttlHours, '--ttl-hours');
    return withGateway(flags, async (gateway) => {
      const channel = await gateway.createChannel({title, description: flags.description, ttlHours});
      return flags.json ? json(channel) : text(formatCreatedChannel(channel, title, ttlHours));
    });
  },
  {json: ({options: flags}) => flags.json},
);
