import type {PreparedDocument} from '../query/document-cache.js';

export type {PreparedDocument};

/** What the server needs of the service's document cache (query/document-cache.ts, one per opened service). */
export interface DocumentPreparer {
  prepare(text: string): PreparedDocument;
  /** Prepared and within the model's cost and depth bounds for these variables. */
  admit(text: string, operationName?: string | null, variables?: Record<string, unknown> | null): PreparedDocument;
}
