// Whether tmux is here for the end-to-end TUI tests: without it they skip loudly, or fail when
// WORKBENCH_REQUIRE_SERVICES is set (.ci/run installs it).
import {execFileSync} from 'node:child_process';

export function requireTmux(what: string): boolean {
  try {
    execFileSync('tmux', ['-V']);
    return true;
  } catch {
    const message = `tmux is not installed: ${what} cannot run (apt-get install tmux)`;
    if (process.env.WORKBENCH_REQUIRE_SERVICES) throw new Error(message);
    console.warn(`\n!!! SKIPPED: ${message}\n`);
    return false;
  }
}

/** Drives one tmux session on its own socket: what is on the screen, keys by name, text as typed, and a wait for text. */
export function tmuxDriver(socket: string, session: string) {
  const tmux = (...args: string[]) => execFileSync('tmux', ['-S', socket, ...args], {encoding: 'utf8'});
  const screen = () => tmux('capture-pane', '-p', '-t', session);
  const shows = async (pattern: string | RegExp, timeoutMs = 20_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (typeof pattern === 'string' ? screen().includes(pattern) : pattern.test(screen())) return;
      if (Date.now() > deadline) throw new Error(`${String(pattern)} not on the screen:\n${screen()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  return {
    tmux,
    screen,
    shows,
    keys: (...names: string[]) => tmux('send-keys', '-t', session, ...names),
    type: (text: string) => tmux('send-keys', '-t', session, '-l', text),
  };
}
