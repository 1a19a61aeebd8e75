import ListsList from './list.js';

export const description = 'Saved lists of articles (a public one is shared as RSS): list (the default), create, delete, add, remove';

// No options here: commander would hand a parent's options the flags meant for its subcommands.
export default ListsList.withProps({options: {json: false}});
