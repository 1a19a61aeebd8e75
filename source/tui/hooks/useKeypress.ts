import {useLayoutEffect, useRef} from 'react';
import {useKeypressRegistry, type KeypressHandler} from '../contexts/KeypressContext.js';
import {KeyPriority} from '../key/keyPriority.js';

export interface UseKeypressOptions {
  /** Only an active subscriber sees keys (the focused pane, the open overlay). */
  isActive: boolean;
  priority?: number;
}

/** Subscribes to keys; the handler returns true when it consumed the key. */
export function useKeypress(handler: KeypressHandler, {isActive, priority = KeyPriority.PANE}: UseKeypressOptions): void {
  const registry = useKeypressRegistry();
  // Refs read at dispatch time, so a key right after a state change sees the new state.
  const handlerRef = useRef(handler);
  const activeRef = useRef(isActive);
  handlerRef.current = handler;
  activeRef.current = isActive;

  // Layout effect: subscribed at commit, so a key right after an overlay opens already reaches it.
  useLayoutEffect(() => registry.subscribe({handler: handlerRef, isActive: activeRef, priority}), [registry, priority]);
}
