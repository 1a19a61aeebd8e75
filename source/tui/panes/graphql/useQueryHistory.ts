import {useEffect, useRef, useState} from 'react';
import {describeError} from '../../../core/errors.js';
import {useRefState} from '../../hooks/useRefState.js';
import {loadHistory, saveHistory, withEntry, type HistoryEntry} from './history.js';

type Texts = Pick<HistoryEntry, 'query' | 'variables'>;

export interface QueryHistory {
  entries: HistoryEntry[];
  /** The kept file could not be read (said in the pane, the history starts empty). */
  problem: string | undefined;
  /** A query run: on top of the history and saved; the error text when saving failed. */
  add(texts: Texts): string | undefined;
  /** Ctrl-P (1) / Ctrl-N (-1) from the texts on screen: what to put in the boxes, and what to say. */
  recall(step: 1 | -1, shown: Texts): {texts?: Texts; message: string};
}

/**
 * The queries run, kept in WORKBENCH_HOME/gql-history.json (read once `start` is true), and the
 * walk through them; the entries are read as the last key left them, not as the last frame drew them.
 */
export function useQueryHistory({start}: {start: boolean}): QueryHistory {
  const [entries, getEntries, setEntries] = useRefState<HistoryEntry[]>([]);
  const [problem, setProblem] = useState<string>();
  // Where Ctrl-P/Ctrl-N stand; -1 is the text being written, kept as `draft`.
  const index = useRef(-1);
  const draft = useRef<Texts>(undefined);
  useEffect(() => {
    if (!start) return;
    const loaded = loadHistory();
    setEntries(loaded.entries);
    setProblem(loaded.problem);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [start]);

  return {
    entries,
    problem,
    add(texts) {
      const next = withEntry(getEntries(), {...texts, at: new Date().toISOString()});
      setEntries(next);
      index.current = -1;
      try {
        saveHistory(next);
        return undefined;
      } catch (error) {
        return `query history not saved: ${describeError(error)}`;
      }
    },
    recall(step, shown) {
      const all = getEntries();
      // An entry the boxes already hold is passed over: after a run the newest entry is the text on
      // screen, and Ctrl-P should bring the query before it, not the same one again.
      const same = (entry: HistoryEntry | undefined) => entry !== undefined && entry.query === shown.query && entry.variables === shown.variables;
      let target = index.current + step;
      while (target >= 0 && target < all.length && same(all[target])) target += step;
      if (target < -1 || target >= all.length) return {message: target < -1 ? 'newest: the text you were writing' : 'no older query in the history'};
      if (index.current === -1) draft.current = shown;
      index.current = target;
      return {
        texts: target === -1 ? draft.current : all[target],
        message: target === -1 ? 'back to the text you were writing' : `history ${target + 1} of ${all.length}`,
      };
    },
  };
}
