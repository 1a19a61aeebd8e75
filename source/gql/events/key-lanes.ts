import type {OutboxEvent} from './outbox-store.js';

/**
 * The order key of an event: its row, `(table, primary key)`. Events of one key are delivered
 * strictly in id order; events of different keys may go side by side (a consumer keeping a
 * projection of a row needs that row's changes in order, not its neighbours').
 */
export const orderKey = (event: Pick<OutboxEvent, 'aggregate' | 'aggregateId'>): string => `${event.aggregate}\u0000${event.aggregateId}`;

/** Events split by order key, each lane in the order given (id order), lanes by their first event. */
export function lanesOf<T extends {event: OutboxEvent}>(items: readonly T[]): T[][] {
  const lanes = new Map<string, T[]>();
  for (const item of items) {
    const key = orderKey(item.event);
    const lane = lanes.get(key);
    if (lane) lane.push(item);
    else lanes.set(key, [item]);
  }
  return [...lanes.values()];
}

/**
 * At most `size` tasks at once, shared by every aggregate of a round: a table with thousands of
 * changed rows cannot open thousands of requests to the receiver.
 */
export class Slots {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(size: number) {
    this.free = Math.max(1, Math.floor(size));
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter (it stays taken), or is given back.
      const next = this.waiting.shift();
      if (next) next();
      else this.free += 1;
    }
  }
}
