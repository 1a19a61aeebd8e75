import SnapshotList from './list.js';

export const description = 'Visual snapshots of web pages: list (the default), baseline, compare, delete';

// No options here: commander would hand a parent's options the flags meant for its subcommands.
export default SnapshotList.withProps({options: {json: false}});
