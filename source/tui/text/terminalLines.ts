import {stripAnsi} from '../../text/ansi.js';
import {toTerminalText} from '../../text/terminal-safe.js';

const TAB_WIDTH = 8;
// More carried styles than this is a program that never resets; keep the newest.
const MAX_CARRIED_STYLES = 8;
const SGR = /\u001b\[[0-9;:]*m/g;

function sgrSequences(text: string): string[] {
  return text.match(SGR) ?? [];
}

function isSgrReset(sequence: string): boolean {
  return sequence === '\u001b[m' || sequence === '\u001b[0m';
}

/** What a line would show after carriage returns: the last non-empty rewrite wins (progress bars). */
function afterCarriageReturns(line: string): string {
  if (!line.includes('\r')) return line;
  const parts = line.split('\r').filter((part) => stripAnsi(part).length > 0);
  return parts.at(-1) ?? '';
}

function expandTabs(line: string): string {
  if (!line.includes('\t')) return line;
  let out = '';
  let column = 0;
  for (const piece of line.split(/(\u001b\[[0-9;:]*m)/)) {
    if (piece.startsWith('\u001b[')) {
      out += piece;
      continue;
    }
    for (const char of piece) {
      if (char === '\t') {
        const spaces = TAB_WIDTH - (column % TAB_WIDTH);
        out += ' '.repeat(spaces);
        column += spaces;
      } else {
        out += char;
        column += 1;
      }
    }
  }
  return out;
}

/**
 * Splits raw pty output into display lines: colours kept (and carried onto the next line when
 * a style spans lines), cursor movement, clears, titles (OSC 0), clipboard writes (OSC 52) and
 * every other control character dropped, tabs expanded.
 */
export function toDisplayLines(raw: string): string[] {
  // Carriage returns survive this step: they decide below which rewrite of a line shows.
  const cleaned = raw
    .replace(/\r+\n/g, '\n')
    .split('\r')
    .map((part) => toTerminalText(part, {colours: true}))
    .join('\r');
  const lines = cleaned.split('\n');
  if (lines.length > 0 && stripAnsi(lines.at(-1) ?? '') === '') lines.pop();

  let carried: string[] = [];
  return lines.map((rawLine) => {
    const visible = afterCarriageReturns(rawLine);
    const line = carried.join('') + expandTabs(visible);
    for (const sequence of sgrSequences(visible)) {
      carried = isSgrReset(sequence) ? [] : [...carried, sequence].slice(-MAX_CARRIED_STYLES);
    }
    return line;
  });
}

/** The last `count` display lines of the output. */
export function lastLines(raw: string, count: number): string[] {
  if (count <= 0) return [];
  return toDisplayLines(raw).slice(-count);
}
