import {z} from 'zod';
import {option} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';

export const description =
  'Run the feed gateway (proxied feeds at /<name>, channels, the refresh webhook, a WebSub hub) until Ctrl-C; REFRESH_TOKEN in the environment turns the webhook on';

export const options = z.object({
  host: z
    .string()
    .default('127.0.0.1')
    .describe(option({description: 'Address to bind (another than loopback lets anyone who reaches it create channels)', valueDescription: 'address'})),
  port: z
    .string()
    .default('7701')
    .describe(option({description: 'Port to listen on (0: any free port)', valueDescription: 'n'})),
  db: z
    .string()
    .optional()
    .describe(option({description: 'Store: a SQLite path or a postgres:// / mysql:// URL (default: SQLite in WORKBENCH_HOME)', valueDescription: 'path|url'})),
  config: z
    .string()
    .optional()
    .describe(option({description: 'A KDL file with the gateway { feed "<name>" origin="<url>" } block (default: .workbench.kdl here)', valueDescription: 'file'})),
  publicUrl: z
    .string()
    .optional()
    .describe(option({description: 'The address others reach this gateway at (behind a proxy): used in feed, self and hub URLs and accepted as Host', valueDescription: 'url'})),
});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(async ({options: flags}) => {
  const {runGatewayServer} = await import('../../servers/gateway/main.js');
  return runGatewayServer(flags);
});
