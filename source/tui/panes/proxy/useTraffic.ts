import {useEffect, useRef, useState} from 'react';
import {describeError} from '../../../core/errors.js';
import type {ProxyInfo, TrafficEntry} from '../../../devproxy/types.js';
import type {ProxiesPort} from '../../ports/proxies.js';
import {shownTraffic} from './shown.js';

/** Entries the pane keeps per proxy: more than a screen scrolls through, bounded whatever the traffic. */
export const TRAFFIC_KEPT = 2000;

export interface Traffic {
  /** Oldest first, terminal-safe. */
  entries: TrafficEntry[];
  error: string | undefined;
  /** Entries the ring dropped between two looks (a burst larger than one answer). */
  missed: number;
}

interface State extends Traffic {
  /** Which proxy run the entries belong to: a restarted proxy numbers from 1 again. */
  run: string;
}

const EMPTY: Traffic = {entries: [], error: undefined, missed: 0};

/**
 * A proxy's traffic log, kept current from the daemon's `traffic` events: each event burst asks
 * only for the entries after the last one held (`afterSeq`), so a busy proxy costs one small
 * answer per burst, never the whole log again, and a quiet one costs nothing.
 */
export function useTraffic(port: ProxiesPort, proxy: ProxyInfo | undefined, enabled: boolean): Traffic {
  const run = proxy ? `${proxy.id}@${proxy.startedAt}` : '';
  const [state, setState] = useState<State>({...EMPTY, run});
  const lastSeq = useRef(0);
  const id = proxy?.id;

  useEffect(() => {
    lastSeq.current = 0;
    setState((previous) => (previous.run === run && previous.entries.length === 0 && !previous.error ? previous : {...EMPTY, run}));
    if (!enabled || id === undefined) return;
    let stopped = false;
    let inFlight = false;
    let again = false;
    const load = async (): Promise<void> => {
      if (stopped) return;
      if (inFlight) {
        again = true;
        return;
      }
      inFlight = true;
      try {
        const after = lastSeq.current;
        const fresh = await port.traffic(id, {afterSeq: after, limit: TRAFFIC_KEPT});
        if (stopped) return;
        const first = fresh[0];
        if (first !== undefined && first.seq <= after) {
          // Numbered from 1 again under the same id and start time: a new log, read it whole.
          lastSeq.current = 0;
          setState({...EMPTY, run});
          again = true;
        } else if (fresh.length > 0) {
          lastSeq.current = fresh.at(-1)!.seq;
          const missed = after > 0 && first ? first.seq - after - 1 : 0;
          setState((previous) => ({
            run,
            entries: [...previous.entries, ...fresh.map(shownTraffic)].slice(-TRAFFIC_KEPT),
            error: undefined,
            missed: previous.missed + missed,
          }));
        } else setState((previous) => (previous.error ? {...previous, error: undefined} : previous));
      } catch (error) {
        if (!stopped) setState((previous) => ({...previous, error: describeError(error)}));
      } finally {
        inFlight = false;
      }
      if (again && !stopped) {
        again = false;
        void load();
      }
    };
    const unwatch = port.watchTraffic(id, () => void load());
    void load();
    return () => {
      stopped = true;
      unwatch();
    };
  }, [port, id, run, enabled]);

  return state.run === run ? state : EMPTY;
}
