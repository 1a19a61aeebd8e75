import ArticlesList from './list.js';

export const description = 'Articles of your feeds: list (the default, newest first), show, read, unread, snooze, unsnooze';

// No options here: commander would hand a parent's options the flags meant for its subcommands.
export default ArticlesList.withProps({options: {json: false, unread: false}});
