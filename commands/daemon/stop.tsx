import {textCommand} from '../../source/cli/command-output.js';

export const description = 'Stop the daemon and the processes it owns';

export default textCommand(async () => {
  const {stopDaemon} = await import('../../source/daemon/lifecycle.js');
  const result = await stopDaemon();
  return {stdout: result.wasRunning ? `stopped daemon (pid ${result.pid})\n` : 'daemon was not running\n'};
});
