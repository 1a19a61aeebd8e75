import {createContext, useContext} from 'react';

/**
 * Where fetched data enters React. A line a process prints with an error in it is three events
 * (output, alerts, the status bar's counts): delivered one by one, their fetches' answers are three
 * renders, and ink draws the first at once and the next as another frame. Delivered together, they
 * are one render and one frame.
 */
export interface Deliveries {
  /** A fetch started whose answer will be delivered; call the returned function when it was (or was dropped). */
  begin(): () => void;
  /** Applies `apply` (a state update) with the other answers that arrive close to it. */
  deliver(apply: () => void): void;
}

/** Every answer applied as it arrives: components rendered without the App's batch (tests). */
export const immediateDeliveries: Deliveries = {
  begin: () => () => {},
  deliver: (apply) => apply(),
};

export interface BatchedDeliveriesOptions {
  /** How long the first answer waits for others (default 20 ms). */
  lingerMs?: number;
  /** Fetches still running after this long are not waited for (default 100 ms). */
  maxWaitMs?: number;
}

/**
 * Answers applied together, in one task, so React renders them once: the first waits `lingerMs`
 * for others, and longer while a fetch that started is still running, up to `maxWaitMs`.
 */
export function batchedDeliveries({lingerMs = 20, maxWaitMs = 100}: BatchedDeliveriesOptions = {}): Deliveries & {close(): void} {
  let queued: (() => void)[] = [];
  let running = 0;
  let firstAt = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    if (running > 0 && Date.now() - firstAt < maxWaitMs) {
      timer = setTimeout(flush, lingerMs);
      return;
    }
    const applies = queued;
    queued = [];
    for (const apply of applies) apply();
  };
  return {
    begin() {
      running++;
      let done = false;
      return () => {
        if (done) return;
        done = true;
        running--;
      };
    },
    deliver(apply) {
      queued.push(apply);
      if (timer) return;
      firstAt = Date.now();
      timer = setTimeout(flush, lingerMs);
    },
    close() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      queued = [];
    },
  };
}

export const DeliveriesContext = createContext<Deliveries>(immediateDeliveries);

export function useDeliveries(): Deliveries {
  return useContext(DeliveriesContext);
}
