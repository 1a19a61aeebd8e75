import type {Store} from '../store/index.js';
import type {ReaderDeps} from './deps.js';

/** What every part of the service shares. */
export interface ReaderContext {
  store: Store;
  deps: ReaderDeps;
  /** The public RSS address of a list's share token. */
  rssUrl(token: string): string;
  nowMs(): number;
}
