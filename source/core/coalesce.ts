/** A call that bursts of events share: see `coalesce`. */
export type Coalesced = (() => void) & {cancel(): void};

/**
 * `call` at once, then at most once more per `ms` while calls keep coming (the last one is never
 * lost): the first event of a burst is news at once, the rest of the burst costs one more call at
 * its end. `ms` 0 or less: every call goes through.
 */
export function coalesce(call: () => void, ms: number): Coalesced {
  let timer: NodeJS.Timeout | undefined;
  let pending = false;
  const quiet = () => {
    timer = undefined;
    if (!pending) return;
    pending = false;
    call();
    timer = setTimeout(quiet, ms);
  };
  const coalesced = () => {
    if (ms <= 0) return call();
    if (timer) {
      pending = true;
      return;
    }
    call();
    timer = setTimeout(quiet, ms);
  };
  return Object.assign(coalesced, {
    cancel: () => {
      pending = false;
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  });
}
