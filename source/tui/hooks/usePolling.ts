import {useEffect, useRef, useState, type DependencyList} from 'react';
import {describeError} from '../../core/errors.js';

export interface Polled<T> {
  /** Last successful result; kept while a later call fails, cleared when deps change. */
  data: T | undefined;
  /** One-line message of the last call's failure, cleared by the next success. */
  error: string | undefined;
  /** Polls now (or right after the call in flight) instead of waiting for the interval. */
  refresh: () => void;
}

interface PollState<T> {
  data?: T;
  error?: string;
}

function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || typeof a !== 'object' || typeof b !== 'object') return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Calls `fetch` now and again `intervalMs` after each call settles, so calls never overlap
 * and a slow backend slows the polling instead of piling requests up.
 */
export function usePolling<T>(fetch: () => Promise<T>, intervalMs: number, deps: DependencyList, enabled = true): Polled<T> {
  const fetchRef = useRef(fetch);
  fetchRef.current = fetch;
  const [state, setState] = useState<PollState<T>>({});
  const refreshRef = useRef<() => void>(() => {});

  useEffect(() => {
    setState(previous => (previous.data === undefined && previous.error === undefined ? previous : {}));
    if (!enabled) {
      refreshRef.current = () => {};
      return;
    }
    let stopped = false;
    let inFlight = false;
    let again = false;
    let timer: NodeJS.Timeout | undefined;

    const tick = async (): Promise<void> => {
      if (stopped) return;
      if (inFlight) {
        again = true;
        return;
      }
      clearTimeout(timer);
      inFlight = true;
      try {
        const data = await fetchRef.current();
        // An unchanged answer keeps the old state, so a quiet backend causes no redraw.
        if (!stopped) setState(previous => (previous.error === undefined && sameData(previous.data, data) ? previous : {data}));
      } catch (error) {
        if (!stopped) setState(previous => ({data: previous.data, error: describeError(error)}));
      } finally {
        inFlight = false;
      }
      if (stopped) return;
      if (again) {
        again = false;
        void tick();
        return;
      }
      timer = setTimeout(() => void tick(), intervalMs);
    };

    refreshRef.current = () => void tick();
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
    // The caller's deps decide when polling restarts; fetch itself is read through a ref.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enabled, intervalMs, ...deps]);

  return {data: state.data, error: state.error, refresh: () => refreshRef.current()};
}
