import type {PolledItem} from '../store/index.js';
import type {ParsedFeed} from '../types.js';
import type {ReaderDeps} from './deps.js';

/** The parsed items with their identity keys, as the store saves them. */
export function polledItems(deps: ReaderDeps, parsed: ParsedFeed): PolledItem[] {
  return parsed.items.map((item) => ({key: deps.articleKey(item), item}));
}
