import GatewayFeeds from './feeds.js';

export const description = 'The running gateway’s proxied feeds: feeds (the default), status, refresh';

// No options here: commander would hand a parent's options the flags meant for its subcommands.
export default GatewayFeeds.withProps({options: {json: false}});
