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
