import {stripAnsi} from '../../../text/ansi.js';
import {toTerminalLine} from '../../../text/terminal-safe.js';

/** Lines of a process's output around where an incident was printed. */
export interface OutputAround {
  lines: string[];
  /** Index in `lines` of the line that printed the incident. */
  at: number;
}

/**
 * The last place in `output` (ANSI and all) whose line holds the incident's message (its first
 * line, at most 80 characters), with `before` lines before and `after` after; undefined when the
 * ring no longer holds it.
 */
export function outputAround(output: string, message: string, before = 3, after = 6): OutputAround | undefined {
  const needle = (message.split('\n')[0] ?? '').trim().slice(0, 80);
  if (!needle) return undefined;
  const lines = stripAnsi(output).split(/\r?\n/);
  for (let index = lines.length - 1; index >= 0; index--) {
    if (!lines[index].includes(needle)) continue;
    const from = Math.max(0, index - before);
    return {lines: lines.slice(from, index + after + 1).map((line) => toTerminalLine(line.replace(/\r/g, ''))), at: index - from};
  }
  return undefined;
}
