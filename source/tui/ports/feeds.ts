import type {ReaderService} from '../../feeds/contracts.js';
import {WorkbenchError} from '../../core/errors.js';
import {pollingWatch, type Watch} from './watch.js';

// Light polling: the reader's own poller brings articles in minutes, not seconds.
export const FEEDS_POLL_MS = 5000;

/** The Feeds pane's port: the ReaderService every face uses (`openReader()`, as `workbench feeds ...`). */
export interface FeedsPort {
  /**
   * Opened on first use: a running `workbench serve reader`, else in-process on the local store.
   * A reader server that stops answering is looked up again in the service registry (it may have
   * come back on another port) on the next call, and a call it refused is made once more there.
   */
  reader(): Promise<ReaderService>;
  /** Calls `onChange` when feeds or articles may have changed. */
  watch: Watch;
  close(): Promise<void>;
}

/** A reader server that no longer answers where it was (http-reader's `reader server not reachable at ...`). */
function unreachable(error: unknown): boolean {
  return error instanceof WorkbenchError && error.code === 'daemon_not_connected' && error.message.startsWith('reader server not reachable');
}

/** Refused or gone: the request never reached a server, so making it again elsewhere does nothing twice. */
function neverArrived(error: unknown): boolean {
  return unreachable(error) && /ECONNREFUSED|ENOENT|EHOSTUNREACH|EADDRNOTAVAIL/.test((error as Error).message);
}

export function createFeedsPort(options: {open?: () => Promise<ReaderService>; pollMs?: number} = {}): FeedsPort {
  const open = options.open ?? (async () => (await import('../../feeds/client/connect.js')).openReader());
  let current: Promise<ReaderService> | undefined;
  const opened = () => {
    // A failed open is tried again next time (the server may have come up meanwhile).
    current ??= open().catch((error: unknown) => {
      current = undefined;
      throw error;
    });
    return current;
  };
  const forget = (stale: Promise<ReaderService>) => {
    if (current !== stale) return;
    current = undefined;
    void stale.then((reader) => reader.close()).catch(() => undefined);
  };

  // One object for the pane whatever reader is behind it: each call goes to the current one.
  const stable = new Proxy({} as ReaderService, {
    get(_target, name) {
      if (name === 'then') return undefined;
      if (name === 'close') return async () => undefined;
      return async (...args: unknown[]) => {
        const attempt = async (): Promise<unknown> => {
          const pending = opened();
          const reader = (await pending) as unknown as Record<string | symbol, (...a: unknown[]) => Promise<unknown>>;
          try {
            return await reader[name]!(...args);
          } catch (error) {
            if (unreachable(error)) forget(pending);
            throw error;
          }
        };
        try {
          return await attempt();
        } catch (error) {
          if (!neverArrived(error)) throw error;
          return attempt();
        }
      };
    },
  });

  return {
    reader: async () => {
      await opened();
      return stable;
    },
    watch: pollingWatch(options.pollMs ?? FEEDS_POLL_MS),
    close: async () => {
      const reader = await current?.catch(() => undefined);
      await reader?.close();
    },
  };
}
