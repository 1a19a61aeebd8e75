/** Stops a watch. */
export type Unwatch = () => void;

/** How a port tells the TUI that what it shows may have changed: the pane fetches again. */
export type Watch = (onChange: () => void) => Unwatch;

/**
 * A watch that says "maybe changed" every `intervalMs`. Ports use it where the daemon pushes no
 * event yet; a port switching to pushed events changes only its own `watch`.
 */
export function pollingWatch(intervalMs: number): Watch {
  return (onChange) => {
    const timer = setInterval(onChange, intervalMs);
    return () => clearInterval(timer);
  };
}
