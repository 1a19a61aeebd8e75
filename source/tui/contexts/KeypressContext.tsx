import React, {createContext, useCallback, useContext, useMemo, useRef} from 'react';
import {useInput} from 'ink';
import {toKeypress, type Keypress} from '../key/keyBindings.js';

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

const KeypressContext = createContext<KeypressRegistry | undefined>(undefined);

/** The one ink input listener of the app; it hands each key to subscribers, highest priority first. */
export function KeypressProvider({children}: {children: React.ReactNode}): React.JSX.Element {
  const subscriptions = useRef<Subscription[]>([]);
  const counter = useRef(0);

  const subscribe = useCallback((subscription: Omit<Subscription, 'order'>) => {
    const entry: Subscription = {...subscription, order: counter.current++};
    subscriptions.current = [...subscriptions.current, entry];
    return () => {
      subscriptions.current = subscriptions.current.filter((item) => item !== entry);
    };
  }, []);

  useInput((input, key) => {
    const press = toKeypress(input, key);
    // Newest first within a priority: an overlay opened last is the one on top.
    const ordered = [...subscriptions.current].sort((a, b) => b.priority - a.priority || b.order - a.order);
    for (const subscription of ordered) {
      if (!subscription.isActive.current) continue;
      if (subscription.handler.current(press)) return;
    }
  });

  const registry = useMemo(() => ({subscribe}), [subscribe]);
  return <KeypressContext.Provider value={registry}>{children}</KeypressContext.Provider>;
}

export function useKeypressRegistry(): KeypressRegistry {
  const registry = useContext(KeypressContext);
  if (!registry) throw new Error('useKeypress needs a KeypressProvider above it');
  return registry;
}
