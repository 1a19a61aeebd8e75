import React, {createContext, useCallback, useContext, useEffect, useMemo, useRef, useState} from 'react';

/** A consumer's question on each tick: does the text you show read differently at `now`? */
type Check = (now: number) => boolean;

interface Clock {
  now: number;
  register(check: Check): () => void;
}

const ClockContext = createContext<Clock | undefined>(undefined);

// Ticks on whole seconds, so every age on the screen moves in the same frame.
const TICK_MS = 1000;
const untilNextTick = (now: number) => TICK_MS - (now % TICK_MS) + 5;

/**
 * The one clock of the TUI: a single timer on whole seconds. On each tick it asks every `useNow`
 * whether its text (ages, uptimes) reads differently; only then does it set the time, once, so a
 * quiet screen is not redrawn and two panes' ages move in one frame, not two.
 */
export function ClockProvider({children}: {children: React.ReactNode}): React.JSX.Element {
  const [now, setNow] = useState(() => Date.now());
  const checks = useRef(new Set<Check>());
  useEffect(() => {
    let timer: NodeJS.Timeout;
    const tick = () => {
      const at = Date.now();
      let changed = false;
      for (const check of checks.current) if (check(at)) changed = true;
      if (changed) setNow(at);
      timer = setTimeout(tick, untilNextTick(Date.now()));
    };
    timer = setTimeout(tick, untilNextTick(Date.now()));
    return () => clearTimeout(timer);
  }, []);
  const register = useCallback((check: Check) => {
    checks.current.add(check);
    return () => void checks.current.delete(check);
  }, []);
  const clock = useMemo<Clock>(() => ({now, register}), [now, register]);
  return React.createElement(ClockContext.Provider, {value: clock}, children);
}

/**
 * The current time for text that moves with it. `shown(now)` is that text (the visible rows'
 * ages, say): the component re-renders when it would read differently, not on every tick. Without
 * a ClockProvider above, a timer of its own every second.
 */
export function useNow(shown: (now: number) => string = String): number {
  const clock = useContext(ClockContext);
  const [ownNow, setOwnNow] = useState(() => Date.now());
  const now = clock?.now ?? ownNow;
  const shownRef = useRef(shown);
  shownRef.current = shown;
  // What the last render showed, read by the clock's next tick (after the render, so `shown` may
  // read what the component worked out below its call to useNow).
  const lastShown = useRef<string>('');
  useEffect(() => {
    lastShown.current = shownRef.current(now);
  });
  const register = clock?.register;
  useEffect(() => {
    const changed = (at: number) => shownRef.current(at) !== lastShown.current;
    if (register) return register(changed);
    const timer = setInterval(() => {
      const at = Date.now();
      if (changed(at)) setOwnNow(at);
    }, TICK_MS);
    return () => clearInterval(timer);
  }, [register]);
  return now;
}
