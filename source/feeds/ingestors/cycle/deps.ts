import type {Network} from '../../../net/safe-lookup.js';
import type {Store} from '../../store/index.js';
import type {RelevanceJudge} from '../types.js';

/** What a cycle runs against: the reader's store, the clock, the model (opened only when llmEnabled), the network stack (tests). */
export interface CycleDeps {
  store: Store;
  now(): Date;
  openJudge(): Promise<RelevanceJudge>;
  network?: Network;
}
