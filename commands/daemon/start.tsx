import {textCommand} from '../../source/cli/command-output.js';

export const description = 'Start the daemon that owns processes and alerts (any command that needs it starts it too)';

export default textCommand(async () => {
  const {ensureDaemon, daemonStatus} = await import('../../source/daemon/lifecycle.js');
  const {client, started} = await ensureDaemon();
  client.close();
  const status = await daemonStatus();
  return {stdout: `${started ? 'started' : 'already running'}: pid ${status.pid}, socket ${status.socket}\n`};
});
