import {coalesce} from '../../core/coalesce.js';
import type {DaemonClient} from '../../daemon/client.js';
import type {DaemonEvents, Topic} from '../../daemon/protocol/index.js';
import type {Watch} from './watch.js';

export interface DaemonWatchOptions<T extends Topic = Topic> {
  /** The events that mean "changed" (see daemon/protocol/events.ts); none: only the connection's coming and going. */
  topic?: T;
  /** `output` only: one process's output. */
  id?: string;
  /** Only the events this accepts mean "changed" (one proxy's `traffic`, say); every event of the topic when absent. */
  accept?: (event: DaemonEvents[T]) => boolean;
  /** While the daemon is away (or cannot push), how long to wait before trying again. */
  retryMs: number;
  /**
   * Events closer together than this are one change: the first is passed on at once, the rest of
   * the burst once at its end (a process printing line by line costs one fetch per `coalesceMs`,
   * not one per line). 0: every event.
   */
  coalesceMs?: number;
}

/**
 * A watch on the daemon's pushed events, over the connection the tool handlers use
 * (`context.daemon()`), so the TUI holds one connection however many panes watch. `onChange` is
 * called on every event of the topic; once after each (re)subscription, for what changed while
 * there was none; and when the connection closes, so the pane fetches and shows "daemon not
 * connected". It then tries again every `retryMs` until the daemon is back, calling `onChange`
 * only when that changes something (a stopped daemon costs a failed connect, not a redraw). While
 * subscribed it never polls. A daemon that refuses the subscription is looked at every `retryMs` instead.
 */
export function daemonWatch<T extends Topic>(daemon: () => Promise<DaemonClient>, options: DaemonWatchOptions<T>): Watch {
  const {topic, id, accept, retryMs, coalesceMs = DEFAULT_COALESCE_MS} = options;
  return (onChangeNow) => {
    let stopped = false;
    const onChange = coalesce(onChangeNow, coalesceMs);
    let timer: NodeJS.Timeout | undefined;
    let unsubscribe: (() => Promise<void>) | undefined;
    // The pane was already told the daemon is away: failed retries are no news.
    let away = false;

    const retry = () => {
      if (!stopped) timer = setTimeout(() => void attach(), retryMs);
    };
    const attach = async (): Promise<void> => {
      timer = undefined;
      let client: DaemonClient;
      try {
        client = await daemon();
        const stop = topic ? await client.subscribe(topic, (event) => (!accept || accept(event)) && onChange(), {id}) : async () => {};
        if (stopped) {
          void stop();
          return;
        }
        unsubscribe = stop;
      } catch {
        if (stopped) return;
        if (!away) onChange();
        away = true;
        retry();
        return;
      }
      away = false;
      onChange();
      void client.closedPromise().then(() => {
        unsubscribe = undefined;
        if (stopped) return;
        away = true;
        onChange();
        retry();
      });
    };

    void attach();
    return () => {
      stopped = true;
      onChange.cancel();
      if (timer) clearTimeout(timer);
      void unsubscribe?.();
    };
  };
}

// A quarter of a second: output and alerts look live, a chatty process costs four fetches a second at most.
const DEFAULT_COALESCE_MS = 250;

/** Both watches: `onChange` when either says so. */
export function eitherWatch(...watches: Watch[]): Watch {
  return (onChange) => {
    const unwatches = watches.map((watch) => watch(onChange));
    return () => {
      for (const unwatch of unwatches) unwatch();
    };
  };
}
