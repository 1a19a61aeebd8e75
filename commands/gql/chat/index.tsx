import ChatList from './list.js';

export const description = "The database's chat (chat-conversations / chat-messages tables, chat connectors as tools): list (the default), send, approve";

// No options here: commander would hand a parent's options the flags meant for its subcommands.
export default ChatList.withProps({options: {json: false}});
