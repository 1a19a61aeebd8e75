import {toTerminalText} from '../text/terminal-safe.js';
import type {CommandResult} from './command-output.js';

export function json(value: unknown): CommandResult {
  return {stdout: JSON.stringify(value, null, 2) + '\n'};
}

/** Output for people: text from feeds and servers is made safe for a terminal here (--json and exports keep it whole). */
export function text(stdout: string): CommandResult {
  const safe = toTerminalText(stdout);
  return {stdout: safe.endsWith('\n') ? safe : safe + '\n'};
}

/** Output that is data (an OPML export): written as it is. */
export function data(stdout: string): CommandResult {
  return {stdout: stdout.endsWith('\n') ? stdout : stdout + '\n'};
}
