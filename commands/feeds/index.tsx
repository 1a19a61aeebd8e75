import FeedsList from './list.js';

export const description = 'Feed subscriptions: list (the default), add, discover, remove, refresh, mark-read, import, export, parse';

// No options here: commander would hand a parent's options the flags meant for its subcommands.
export default FeedsList.withProps({options: {json: false}});
