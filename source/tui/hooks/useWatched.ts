import {useEffect, useRef, useState, type DependencyList} from 'react';
import {describeError} from '../../core/errors.js';
import type {Unwatch} from '../ports/watch.js';
import {useDeliveries} from './deliveries.js';

export interface Watched<T> {
  /** Last successful result; kept while a later call fails, cleared when deps change. */
  data: T | undefined;
  /** One-line message of the last call's failure, cleared by the next success. */
  error: string | undefined;
  /** Fetches now (or right after the call in flight), e.g. after an action. */
  refresh: () => void;
  /**
   * Shows what an action just did before the backend's next answer: `update` applies to the data
   * now, and any answer to a call that started before it is dropped (it may not know the action).
   */
  mutate: (update: (data: T) => T) => void;
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
 * Answers enter React through the App's deliveries (hooks/deliveries.ts): close ones render together.
 */
export function useWatched<T>(fetch: () => Promise<T>, watch: (onChange: () => void) => Unwatch, deps: DependencyList, enabled = true): Watched<T> {
  const fetchRef = useRef(fetch);
  fetchRef.current = fetch;
  const [state, setState] = useState<State<T>>({});
  const refreshRef = useRef<() => void>(() => {});
  const mutateRef = useRef<(update: (data: T) => T) => void>(() => {});
  const deliveries = useDeliveries();

  useEffect(() => {
    setState((previous) => (previous.data === undefined && previous.error === undefined ? previous : {}));
    if (!enabled) {
      refreshRef.current = () => {};
      mutateRef.current = () => {};
      return;
    }
    let stopped = false;
    // Answers apply in the order their calls started: one delivered late (batched) must not
    // overwrite a newer one, nor a local change made after its call began.
    let started = 0;
    let applied = 0;
    let inFlight = false;
    let again = false;
    let againAsked = false;

    // asked: the first look and a refresh after the user's action are shown at once; what a watch
    // reported waits for the answers that come with it (hooks/deliveries.ts).
    const load = async (asked: boolean): Promise<void> => {
      if (stopped) return;
      if (inFlight) {
        again = true;
        againAsked ||= asked;
        return;
      }
      inFlight = true;
      const call = ++started;
      const delivered = deliveries.begin();
      const apply = (next: (previous: State<T>) => State<T>) => {
        if (stopped || call < applied) return;
        applied = call;
        setState(next);
      };
      const update = (next: (previous: State<T>) => State<T>) => (asked ? apply(next) : deliveries.deliver(() => apply(next)));
      try {
        const data = await fetchRef.current();
        // An unchanged answer keeps the old state, so a quiet backend causes no redraw.
        if (!stopped) update((previous) => (previous.error === undefined && sameData(previous.data, data) ? previous : {data}));
      } catch (error) {
        if (!stopped) update((previous) => ({data: previous.data, error: describeError(error)}));
      } finally {
        inFlight = false;
        delivered();
      }
      if (again && !stopped) {
        const wasAsked = againAsked;
        again = false;
        againAsked = false;
        void load(wasAsked);
      }
    };

    refreshRef.current = () => void load(true);
    mutateRef.current = (change) => {
      applied = ++started;
      setState((previous) => (previous.data === undefined ? previous : {...previous, data: change(previous.data)}));
    };
    const unwatch = watch(() => void load(false));
    void load(true);
    return () => {
      stopped = true;
      unwatch();
    };
    // The caller's deps (the port and what is asked for) decide when watching restarts; fetch is read through a ref.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enabled, deliveries, ...deps]);

  return {data: state.data, error: state.error, refresh: () => refreshRef.current(), mutate: (change) => mutateRef.current(change)};
}
