import type {ReaderService} from '../../../feeds/contracts.js';
import type {Ingestor} from '../../../feeds/ingestors/types.js';
import {toTerminalLine} from '../../../text/terminal-safe.js';
import {useWatched, type Watched} from '../../hooks/useWatched.js';
import type {FeedsPort} from '../../ports/feeds.js';

/** Titles and status messages come from the networks: made terminal-safe where they enter the view. */
function shown(ingestor: Ingestor): Ingestor {
  return {...ingestor, title: toTerminalLine(ingestor.title), statusMessage: ingestor.statusMessage === null ? null : toTerminalLine(ingestor.statusMessage)};
}

/** The reader's ingestors, kept current by the feeds port while the view is open. */
export function useIngestorData(port: FeedsPort, reader: ReaderService | undefined, enabled: boolean): Watched<Ingestor[]> {
  return useWatched(async () => (reader ? (await reader.listIngestors()).map(shown) : []), port.watch, [port, reader], enabled && reader !== undefined);
}
