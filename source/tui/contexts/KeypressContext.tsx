import React, {createContext, useCallback, useContext, useEffect, useMemo, useRef} from 'react';
import {useStdin} from 'ink';
import {unstable_cancelCallback as cancelTask, unstable_NormalPriority as NORMAL, unstable_scheduleCallback as scheduleTask} from 'scheduler';
import type {Keypress} from '../key/keyBindings.js';
import {KeySplitter} from '../key/keySequences.js';

/** Returns true when it consumed the key, so lower-priority handlers never see it. */
export type KeypressHandler = (press: Keypress) => boolean;

interface Subscription {
  handler: {current: KeypressHandler};
  isActive: {current: boolean};
  priority: number;
  order: number;
}

interface KeypressRegistry {
  subscribe(subscription: Omit<Subscription, 'order'>): () => void;
}

// Exported for tests that hand keys over themselves (several in one React batch).
export const KeypressContext = createContext<KeypressRegistry | undefined>(undefined);

/**
 * The one input listener of the app. Every key of a read is handed over on its own, in order
 * (`jjj`, three arrows in one write, `2?`): ink's reader cuts a read at escape sequences, the
 * KeySplitter cuts text runs into characters. The first key is handled at once; each next one
 * only after React has rendered and committed what the previous key did, so its handler (read
 * through a ref) sees the input that key opened or the text it typed.
 *
 * "After React" is React's own queue: ink's updates render as tasks of React's scheduler, which
 * React schedules in a microtask after the setState. The next key is queued in that scheduler
 * behind them (from a microtask queued after React's, at the same priority, so in order). A turn
 * of the event loop was not enough: on a loaded machine the scheduler yields after 5 ms and its
 * render runs a turn later — `s` Enter in one read opened the picker after Enter had gone by.
 */
export function KeypressProvider({children}: {children: React.ReactNode}): React.JSX.Element {
  const subscriptions = useRef<Subscription[]>([]);
  const counter = useRef(0);
  const {setRawMode, internal_eventEmitter: events} = useStdin();

  const subscribe = useCallback((subscription: Omit<Subscription, 'order'>) => {
    const entry: Subscription = {...subscription, order: counter.current++};
    subscriptions.current = [...subscriptions.current, entry];
    return () => {
      subscriptions.current = subscriptions.current.filter((item) => item !== entry);
    };
  }, []);

  useEffect(() => {
    setRawMode(true);
    return () => setRawMode(false);
  }, [setRawMode]);

  useEffect(() => {
    const splitter = new KeySplitter();
    const dispatch = (press: Keypress) => {
      // Newest first within a priority: an overlay opened last is the one on top.
      const ordered = [...subscriptions.current].sort((a, b) => b.priority - a.priority || b.order - a.order);
      for (const subscription of ordered) {
        if (!subscription.isActive.current) continue;
        if (subscription.handler.current(press)) return;
      }
    };
    const queue: Keypress[] = [];
    // Set from a key's dispatch until the task that hands over the next one has run.
    let waiting = false;
    let task: unknown;
    let stopped = false;
    const drain = () => {
      task = undefined;
      const press = queue.shift();
      if (!press) {
        waiting = false;
        return;
      }
      waiting = true;
      dispatch(press);
      // The next key waits for React even when it is not here yet: ink hands a read cut at an
      // escape sequence (`e` then an arrow) over as two inputs in the same turn, before React commits.
      queueMicrotask(() => {
        if (!stopped) task = scheduleTask(NORMAL, drain);
      });
    };
    const onInput = (event: string) => {
      queue.push(...splitter.push(event));
      if (!waiting) drain();
    };
    events.on('input', onInput);
    return () => {
      stopped = true;
      events.off('input', onInput);
      if (task !== undefined) cancelTask(task);
      queue.length = 0;
    };
  }, [events]);

  const registry = useMemo(() => ({subscribe}), [subscribe]);
  return <KeypressContext.Provider value={registry}>{children}</KeypressContext.Provider>;
}

export function useKeypressRegistry(): KeypressRegistry {
  const registry = useContext(KeypressContext);
  if (!registry) throw new Error('useKeypress needs a KeypressProvider above it');
  return registry;
}
