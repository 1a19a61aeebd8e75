import {useRef, useState} from 'react';

/**
 * State a key handler reads as the last key left it, and a frame shows. Keys of one read (`jj`,
 * `j` then Enter) reach the handlers before React renders: read from the render, the second key
 * would act on what the last frame showed, not on what the first key did.
 */
export function useKeyState<T>(initial: T): [value: T, now: () => T, set: (next: T) => void] {
  const [value, setValue] = useState(initial);
  const ref = useRef(initial);
  const set = (next: T) => {
    ref.current = next;
    setValue(next);
  };
  return [value, () => ref.current, set];
}
