import ChannelsList from './list.js';

export const description = 'The gateway’s channels, feeds you post items to: list (the default), create, post, delete';

// No options here: commander would hand a parent's options the flags meant for its subcommands.
export default ChannelsList.withProps({options: {json: false}});
