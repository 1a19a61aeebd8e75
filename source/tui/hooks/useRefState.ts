import {useRef, useState} from 'react';

/**
 * State that a frame draws and a key handler reads as the last key left it: keys come faster
 * than frames, so `get()` reads a ref that every `set` writes at once, never the last frame's value.
 * An updater (`set((current) => …)`) starts from that ref too. Not for function values.
 */
export function useRefState<T>(initial: T | (() => T)): [T, () => T, (next: T | ((current: T) => T)) => void] {
  const [state, setState] = useState<T>(initial);
  const ref = useRef(state);
  const set = (next: T | ((current: T) => T)) => {
    ref.current = typeof next === 'function' ? (next as (current: T) => T)(ref.current) : next;
    setState(ref.current);
  };
  return [state, () => ref.current, set];
}
