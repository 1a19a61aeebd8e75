import DaemonStatus from './status.js';

export const description = 'The daemon that owns processes and alerts: status (the default), start, stop';

// No options here: commander would hand a parent's options the flags meant for its subcommands.
export default DaemonStatus.withProps({options: {json: false}});
