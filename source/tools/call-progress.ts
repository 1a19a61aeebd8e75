import {WorkbenchError} from '../core/errors.js';
import type {ToolCall, ToolContext} from './registry-types.js';

export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

export interface ThrottledProgress {
  progress(progress: number, total?: number, message?: string): void;
  /** No more updates: a pending one is dropped (the answer follows, and progress must not outlive it). */
  close(): void;
}

/** At most one progress notification per this many milliseconds, but for the last. */
export const PROGRESS_INTERVAL_MS = 250;

/**
 * Progress as MCP wants it: strictly increasing (an update that does not go forward is dropped)
 * and throttled to one per `intervalMs` — the newest update waits for the rest of the interval,
 * and the last one (progress reaching total) goes at once.
 */
export function throttleProgress(send: (update: ProgressUpdate) => void, options: {intervalMs?: number; now?: () => number} = {}): ThrottledProgress {
  const intervalMs = options.intervalMs ?? PROGRESS_INTERVAL_MS;
  const now = options.now ?? Date.now;
  let lastSent = -Infinity;
  let lastProgress = -Infinity;
  let pending: ProgressUpdate | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const flush = () => {
    timer = undefined;
    if (!pending || closed) return;
    const update = pending;
    pending = undefined;
    lastSent = now();
    send(update);
  };
  return {
    progress(progress, total, message) {
      if (closed || !Number.isFinite(progress) || progress <= lastProgress) return;
      lastProgress = progress;
      pending = {progress, ...(total === undefined ? {} : {total}), ...(message === undefined ? {} : {message})};
      const last = total !== undefined && progress >= total;
      const wait = lastSent + intervalMs - now();
      if (last || wait <= 0) {
        clearTimeout(timer);
        flush();
      } else timer ??= setTimeout(flush, wait);
    },
    close() {
      closed = true;
      clearTimeout(timer);
      pending = undefined;
    },
  };
}

/** What a cancelled call throws: nobody reads it (MCP sends no answer to a cancelled request), but it ends the work. */
export function cancelledError(): WorkbenchError {
  return new WorkbenchError('request_timeout', 'the call was cancelled');
}

/** Throws when the call was cancelled. */
export function checkCancelled(call: ToolCall | undefined): void {
  if (call?.signal.aborted) throw cancelledError();
}

/**
 * Reports progress once a second while `work` runs (progress: seconds waited; `describe` says
 * what is awaited), and stops waiting when the call is cancelled. What `work` brings after a
 * cancel is handed to `undo` (a proxy that started too late is stopped again).
 */
export async function whileWaiting<T>(context: ToolContext, work: Promise<T>, describe: (seconds: number) => string, undo?: (late: T) => unknown): Promise<T> {
  const call = context.call;
  if (!call) return work;
  const stop = tickSeconds(call, describe);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(cancelledError());
    if (call.signal.aborted) onAbort();
    else call.signal.addEventListener('abort', onAbort, {once: true});
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    stop();
    call.signal.removeEventListener('abort', onAbort!);
    if (call.signal.aborted && undo) work.then(undo).catch(() => undefined);
  }
}

/** Progress every second from now (the first at once): seconds since the start, with `describe`'s message. Returns the stop. */
export function tickSeconds(call: ToolCall, describe: (seconds: number) => string): () => void {
  const started = Date.now();
  const tick = () => {
    const seconds = Math.round((Date.now() - started) / 100) / 10;
    call.progress(seconds, undefined, describe(Math.round(seconds)));
  };
  tick();
  const timer = setInterval(tick, 1000);
  return () => clearInterval(timer);
}
