import type {PreparedDocument} from '../query/document-cache.js';

export type {PreparedDocument};

/** What the server needs of the service's document cache (query/document-cache.ts, one per opened service). */
export interface DocumentPreparer {
  prepare(text: string): PreparedDocument;
}
