import {z} from 'zod';
import {option} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';

export const description = 'Run the feed reader API (/api/v1) and its poller until Ctrl-C; other commands and the TUI find it';

export const options = z.object({
  host: z
    .string()
    .default('127.0.0.1')
    .describe(option({description: 'Address to bind (another than loopback exposes your reader: it has no login)', valueDescription: 'address'})),
  port: z
    .string()
    .default('7700')
    .describe(option({description: 'Port to listen on (0: any free port)', valueDescription: 'n'})),
  nextFree: z.boolean().default(false).describe('Take the next free port above --port when it is taken'),
  db: z
    .string()
    .optional()
    .describe(option({description: 'Store: a SQLite path or a postgres:// / mysql:// URL (default: SQLite in WORKBENCH_HOME)', valueDescription: 'path|url'})),
  publicUrl: z
    .string()
    .optional()
    .describe(
      option({description: 'The address others reach this reader at (behind a proxy or a forwarded port): used in shared list URLs and accepted as Host', valueDescription: 'url'}),
    ),
});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(async ({options: flags}) => {
  const {runReaderServer} = await import('../../servers/reader/main.js');
  return runReaderServer(flags);
});
