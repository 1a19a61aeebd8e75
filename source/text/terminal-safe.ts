import {keepOnlyColours, removeEscapes} from './ansi.js';

/**
 * Text from outside (a feed's title, an article, a server's error body, a process's output) on
 * its way to a terminal: a terminal obeys the bytes it is sent, so a feed title holding
 * `ESC ] 52` writes the clipboard, `ESC ] 0` sets the window title and `ESC [ 2J` clears the
 * screen. Escape sequences go first (so their parameters go with them), then every C0 and C1
 * control and the bidi overrides that reorder what follows on the line (Trojan Source).
 * Stored and --json data keeps the text as it came; this runs where it is drawn.
 */

// C0 controls, DEL, C1 controls (0x80–0x9F), bidi embeddings, overrides and isolates.
const UNSAFE = /[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;
// The same, but tab, newline and ESC stay (ESC: every one left starts a colour kept on purpose).
const UNSAFE_BUT_LAYOUT = /[\x00-\x08\x0b-\x1a\x1c-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_BUT_LAYOUT_NO_ESC = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
// For one line: line breaks and tabs become spaces, every other unsafe character goes.
const BREAKS = /[\t\n\v\f\r\x85\u2028\u2029]+/g;
const UNSAFE_IN_LINE = /[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

export interface TerminalTextOptions {
  /** Keep colour and style (SGR) sequences: the process output view shows a program's colours. */
  colours?: boolean;
}

/** Text safe to write to a terminal: no escape sequence (colours kept only when asked), no control but `\n` and `\t`. */
export function toTerminalText(text: string, options: TerminalTextOptions = {}): string {
  if (!UNSAFE.test(text)) return text;
  if (options.colours) return keepOnlyColours(text).replace(UNSAFE_BUT_LAYOUT, '');
  return removeEscapes(text).replace(UNSAFE_BUT_LAYOUT_NO_ESC, '');
}

/** One line safe to write to a terminal: as {@link toTerminalText}, with line breaks and tabs turned into spaces. */
export function toTerminalLine(text: string): string {
  if (!UNSAFE.test(text) && !text.includes('\u2028') && !text.includes('\u2029')) return text;
  return removeEscapes(text).replace(BREAKS, ' ').replace(UNSAFE_IN_LINE, '');
}
