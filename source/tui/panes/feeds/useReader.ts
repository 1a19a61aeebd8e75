import {useEffect, useState} from 'react';
import type {ReaderService} from '../../../feeds/contracts.js';
import {describeError} from '../../../core/errors.js';
import type {FeedsPort} from '../../ports/feeds.js';

/** The port's reader, once it is open; a failure to open it is one line for the pane. */
export function useReader(port: FeedsPort, enabled: boolean): {reader?: ReaderService; error?: string} {
  const [state, setState] = useState<{reader?: ReaderService; error?: string}>({});
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    // A port that throws instead of rejecting still gives a line, not a crash.
    Promise.resolve()
      .then(() => port.reader())
      .then(
        (reader) => live && setState({reader}),
        (error: unknown) => live && setState({error: `feed reader unavailable: ${describeError(error)}`}),
      );
    return () => {
      live = false;
    };
  }, [port, enabled]);
  return state;
}
