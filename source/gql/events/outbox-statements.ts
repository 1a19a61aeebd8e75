import type {Provider} from '../types.js';
import {postgresOutbox} from './outbox-postgres.js';

/**
 * The outbox statements a database writes its own way, by provider; a database without an entry
 * runs the portable ones (outbox-store.ts, capture.ts). They are the outbox's own SQL, not a part
 * every statement asks for, so they live beside the outbox rather than in the dialect.
 */
export const OWN_OUTBOX_STATEMENTS: Partial<Record<Provider, typeof postgresOutbox>> = {postgres: postgresOutbox};
