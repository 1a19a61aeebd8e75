import {z} from 'zod';
import {textCommand} from '../source/cli/command-output.js';

export const description = 'Live charts of the running servers, proxies and the daemon (q quits; 1/2/3 or w: 1m/15m/1h)';

export const options = z.object({
  daemon: z.boolean().default(true).describe('Ask the daemon for the top incidents (--no-daemon: legacy mode)'),
});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(async ({options: flags}) => {
  // blessed and the charts load only when the dashboard opens: pastel imports every command at start.
  const {openDashboard} = await import('../source/cli/open-dashboard.js');
  return openDashboard({noDaemon: !flags.daemon});
});
