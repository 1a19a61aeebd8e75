// Drives tmux for the end-to-end TUI tests; whether tmux is here is asked with
// requirePackage('tmux', …) (helpers/system-package.ts).
import {execFileSync} from 'node:child_process';
import {focusedPane} from './pane-focus.js';

/** Waits until pane `pane` has the focus on `screen()` (helpers/pane-focus.ts): the next key sent reaches it. */
export async function paneFocused(screen: () => string, pane: number, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (focusedPane(screen()) !== pane) {
    if (Date.now() > deadline) throw new Error(`pane ${pane} did not take the focus:\n${screen()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Drives one tmux session on its own socket: what is on the screen, keys by name, text as typed, waits for text and for a pane's focus. */
export function tmuxDriver(socket: string, session: string) {
  const tmux = (...args: string[]) => execFileSync('tmux', ['-S', socket, ...args], {encoding: 'utf8'});
  const screen = () => tmux('capture-pane', '-p', '-t', session);
  const waitForScreen = async (holds: (current: string) => boolean, what: string, timeoutMs = 20_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (holds(screen())) return;
      if (Date.now() > deadline) throw new Error(`${what} not on the screen:\n${screen()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const shows = (pattern: string | RegExp, timeoutMs?: number): Promise<void> =>
    waitForScreen((current) => (typeof pattern === 'string' ? current.includes(pattern) : pattern.test(current)), String(pattern), timeoutMs);
  /**
   * Waits until the status bar (the screen's last row) shows `text`. A pane's own key line may
   * name the same key at all times; the status bar shows what the keys do now (the Chat pane
   * offers only the cancel key while a turn runs).
   */
  const statusBarShows = (text: string, timeoutMs?: number): Promise<void> =>
    waitForScreen((current) => (current.trimEnd().split('\n').at(-1) ?? '').includes(text), `status bar with ${text}`, timeoutMs);
  const keys = (...names: string[]) => tmux('send-keys', '-t', session, ...names);
  /** Presses pane `number`'s key and waits until that pane has the focus (the next key reaches it). */
  const focus = (number: number, timeoutMs?: number): Promise<void> => {
    keys(String(number));
    return paneFocused(screen, number, timeoutMs);
  };
  return {
    tmux,
    screen,
    shows,
    statusBarShows,
    focus,
    keys,
    type: (text: string) => tmux('send-keys', '-t', session, '-l', text),
  };
}
