/** Concurrent calls with one key share one run; the next call after it settles starts afresh. */
export interface SingleFlight<K, V> {
  run(key: K, work: () => Promise<V>): Promise<V>;
  /** Whether a run for this key is in flight. */
  has(key: K): boolean;
  readonly size: number;
}

/** Two clicks on "refresh" (or the poller and a user) fetch a feed once; both get the answer. */
export function singleFlight<K, V>(): SingleFlight<K, V> {
  const flights = new Map<K, Promise<V>>();
  return {
    run(key, work) {
      const current = flights.get(key);
      if (current) return current;
      const flight = Promise.resolve()
        .then(work)
        .finally(() => {
          if (flights.get(key) === flight) flights.delete(key);
        });
      flights.set(key, flight);
      return flight;
    },
    has: (key) => flights.has(key),
    get size() {
      return flights.size;
    },
  };
}
