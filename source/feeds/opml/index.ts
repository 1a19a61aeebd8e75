// OPML, the subscription list every feed reader imports and exports.
export {readOpml, type OpmlEntry} from './read-opml.js';
export {writeOpml} from './write-opml.js';
