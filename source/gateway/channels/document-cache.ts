import type {FeedDocument} from '../types.js';

/**
 * Built channel documents by id, so a GET after 10,000 posts reads no database. Posts and deletes
 * drop their channel's entry; a generation per channel keeps a read that raced a post from
 * putting the older document back. Bounded by an estimate of the documents' size (items are up to
 * 64 KB each), least recently used first out.
 */
export interface DocumentCache {
  get(id: string): {document: FeedDocument; expiresAt: number} | undefined;
  /** The generation to pass back to set(): taken before the database is read. */
  generation(id: string): number;
  set(id: string, generation: number, entry: {document: FeedDocument; expiresAt: number}): void;
  /** The channel changed or went: its entry is dropped and a read in flight will not be kept. */
  invalidate(id: string): void;
}

export const DOCUMENT_CACHE_MAX_BYTES = 32 * 1024 * 1024;

function weight(document: FeedDocument): number {
  let chars = document.title.length + (document.description?.length ?? 0);
  for (const item of document.items) chars += item.id.length + item.title.length + (item.link?.length ?? 0) + (item.description?.length ?? 0) + 64;
  return chars * 2;
}

export function createDocumentCache(maxBytes = DOCUMENT_CACHE_MAX_BYTES): DocumentCache {
  const entries = new Map<string, {document: FeedDocument; expiresAt: number; bytes: number}>();
  const generations = new Map<string, number>();
  let bytes = 0;
  const drop = (id: string) => {
    const entry = entries.get(id);
    if (!entry) return;
    entries.delete(id);
    bytes -= entry.bytes;
  };
  return {
    get(id) {
      const entry = entries.get(id);
      if (!entry) return undefined;
      // Map order is insertion order: re-inserting marks it the most recently used.
      entries.delete(id);
      entries.set(id, entry);
      return entry;
    },
    generation: (id) => generations.get(id) ?? 0,
    set(id, generation, entry) {
      if ((generations.get(id) ?? 0) !== generation) return;
      drop(id);
      const size = weight(entry.document);
      if (size > maxBytes) return;
      entries.set(id, {...entry, bytes: size});
      bytes += size;
      for (const oldest of entries.keys()) {
        if (bytes <= maxBytes) break;
        drop(oldest);
      }
    },
    invalidate(id) {
      drop(id);
      generations.set(id, (generations.get(id) ?? 0) + 1);
    },
  };
}
