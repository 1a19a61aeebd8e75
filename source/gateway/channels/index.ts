// Ephemeral channels (spec 2, part B): created with a title and a ttl, posted to with a write
// token, served as a feed until they expire.
export {createChannels, CHANNEL_FEED_ITEMS, type Channels, type ChannelsOptions} from './create-channels.js';
export {CHANNEL_TITLE_MAX_CHARS, CHANNEL_DESCRIPTION_MAX_CHARS} from './channel-input.js';
