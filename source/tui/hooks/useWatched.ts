import {useEffect, useRef, useState, type DependencyList} from 'react';
import {describeError} from '../../core/errors.js';
import type {Unwatch} from '../ports/watch.js';

export interface Watched<T> {
  /** Last successful result; kept while a later call fails, cleared when deps change. */
  data: T | undefined;
  /** One-line message of the last call's failure, cleared by the next success. */
  error: string | undefined;
  /** Fetches now (or right after the call in flight), e.g. after an action. */
  refresh: () => void;
}

interface State<T> {
  data?: T;
  error?: string;
}

function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || typeof a !== 'object' || typeof b !== 'object') return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Data from a port, kept current: `fetch` now, then again each time the port's `watch` says it may
 * have changed. Calls never overlap; a change reported during a call fetches once more after it.
 */
export function useWatched<T>(fetch: () => Promise<T>, watch: (onChange: () => void) => Unwatch, deps: DependencyList, enabled = true): Watched<T> {
  const fetchRef = useRef(fetch);
  fetchRef.current = fetch;
  const [state, setState] = useState<State<T>>({});
  const refreshRef = useRef<() => void>(() => {});

  useEffect(() => {
    setState((previous) => (previous.data === undefined && previous.error === undefined ? previous : {}));
    if (!enabled) {
      refreshRef.current = () => {};
      return;
    }
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
        const data = await fetchRef.current();
        // An unchanged answer keeps the old state, so a quiet backend causes no redraw.
        if (!stopped) setState((previous) => (previous.error === undefined && sameData(previous.data, data) ? previous : {data}));
      } catch (error) {
        if (!stopped) setState((previous) => ({data: previous.data, error: describeError(error)}));
      } finally {
        inFlight = false;
      }
      if (again && !stopped) {
        again = false;
        void load();
      }
    };

    refreshRef.current = () => void load();
    const unwatch = watch(() => void load());
    void load();
    return () => {
      stopped = true;
      unwatch();
    };
    // The caller's deps (the port and what is asked for) decide when watching restarts; fetch is read through a ref.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enabled, ...deps]);

  return {data: state.data, error: state.error, refresh: () => refreshRef.current()};
}
