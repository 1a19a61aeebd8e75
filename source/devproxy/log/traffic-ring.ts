import type {ProxyRecords} from '../../incidents/types.js';
import type {TrafficEntry, TrafficQuery} from '../types.js';

/** An entry before the ring numbers it. */
export type NewTrafficEntry = TrafficEntry extends infer T ? (T extends TrafficEntry ? Omit<T, 'seq'> : never) : never;

export const DEFAULT_QUERY_LIMIT = 100;

/** A new entry, and the oldest one it pushed out when the ring was full. */
export type EntryListener = (entry: TrafficEntry, dropped: TrafficEntry | undefined) => void;

/**
 * One proxy's traffic log: a fixed array used as a ring, so memory is bounded by `size` entries
 * whatever the traffic, and adding an entry never allocates beyond the entry itself.
 */
export class TrafficRing {
  private readonly slots: Array<TrafficEntry | undefined>;
  private lastSeq = 0;
  private readonly listeners = new Set<EntryListener>();

  constructor(readonly size: number) {
    this.slots = new Array<TrafficEntry | undefined>(size);
  }

  add(fresh: NewTrafficEntry): TrafficEntry {
    const entry = fresh as TrafficEntry;
    entry.seq = ++this.lastSeq;
    const slot = (entry.seq - 1) % this.size;
    const dropped = this.slots[slot];
    this.slots[slot] = entry;
    for (const listener of this.listeners) {
      try {
        listener(entry, dropped);
      } catch {
        // A listener's fault (a closed client) must not break forwarding.
      }
    }
    return entry;
  }

  /** Called for each entry added, with the one it pushed out of a full ring (the inbox loses it). */
  onEntry(listener: EntryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Every entry held, oldest first. */
  *entries(afterSeq = 0): Generator<TrafficEntry> {
    const first = Math.max(this.lastSeq - this.size, afterSeq) + 1;
    for (let seq = first; seq <= this.lastSeq; seq++) yield this.slots[(seq - 1) % this.size]!;
  }

  query(query: TrafficQuery = {}): TrafficEntry[] {
    const limit = Math.max(0, Math.min(Math.floor(query.limit ?? DEFAULT_QUERY_LIMIT), this.size)) || 0;

    if (limit === 0) return [];
    const types = query.types && query.types.length > 0 ? new Set(query.types) : undefined;
    const statuses = query.statusCodes && query.statusCodes.length > 0 ? new Set(query.statusCodes) : undefined;
    const since = query.since ?? 0;
    const path = query.path ? query.path : undefined;
    const picked: TrafficEntry[] = [];
    for (let seq = this.lastSeq; seq > Math.max(this.lastSeq - this.size, query.afterSeq ?? 0) && picked.length < limit; seq--) {
      const entry = this.slots[(seq - 1) % this.size]!;
      // Not a break: an entry is added when its request ends, stamped when it started.
      if (entry.timestamp < since) continue;
      if (types && !types.has(entry.type)) continue;
      if (entry.type === 'http') {
        if (statuses && !statuses.has(entry.status)) continue;
        if (path && !entry.url.includes(path)) continue;
      } else if ((statuses || path) && !types) {
        // Status and path filters narrow to HTTP entries unless other types are asked for by name.
        continue;
      }
      picked.push(entry);
    }
    return picked.reverse();
  }

  /** The inbox's view of everything held. */
  records(id: string): ProxyRecords {
    const records: ProxyRecords = {id, http: [], js: [], custom: [], diagnostics: []};
    for (const entry of this.entries()) {
      if (entry.type === 'http') records.http.push(entry);
      else if (entry.type === 'error') records.js.push(entry);
      else if (entry.type === 'custom') records.custom.push(entry);
      // A request's transport failure is its HTTP entry; the diagnostic beside it would be a second entry.
      else if (entry.type === 'diagnostic' && !entry.inHttpEntry) records.diagnostics.push(entry);
    }
    return records;
  }
}
