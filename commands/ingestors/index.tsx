import IngestorsList from './list.js';

export const description = 'Ingestors pull social networks into feeds: list (the default), add, edit, remove, test. Kinds: kind_1 Mastodon, kind_2 Bluesky, kind_3 Reddit';

// No options here: commander would hand a parent's options the flags meant for its subcommands.
export default IngestorsList.withProps({options: {json: false}});
