import ProcList from './list.js';

export const description = 'Supervised processes: list (the default), output, status, stop, restart, remove';

// No options here: commander would hand a parent's options the flags meant for its subcommands.
export default ProcList.withProps({options: {json: false, all: false}});
