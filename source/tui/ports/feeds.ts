import type {ReaderService} from '../../feeds/contracts.js';
import {pollingWatch, type Watch} from './watch.js';

// Light polling: the reader's own poller brings articles in minutes, not seconds.
export const FEEDS_POLL_MS = 5000;

/** The Feeds pane's port: the ReaderService every face uses (`openReader()`, as `workbench feeds ...`). */
export interface FeedsPort {
  /** Opened on first use: a running `workbench serve reader`, else in-process on the local store. */
  reader(): Promise<ReaderService>;
  /** Calls `onChange` when feeds or articles may have changed. */
  watch: Watch;
  close(): Promise<void>;
}

export function createFeedsPort(options: {open?: () => Promise<ReaderService>; pollMs?: number} = {}): FeedsPort {
  const open = options.open ?? (async () => (await import('../../feeds/client/connect.js')).openReader());
  let reader: Promise<ReaderService> | undefined;
  return {
    reader: () => {
      // A failed open is tried again next time (the server may have come up meanwhile).
      reader ??= open().catch((error: unknown) => {
        reader = undefined;
        throw error;
      });
      return reader;
    },
    watch: pollingWatch(options.pollMs ?? FEEDS_POLL_MS),
    close: async () => {
      const opened = await reader?.catch(() => undefined);
      await opened?.close();
    },
  };
}
