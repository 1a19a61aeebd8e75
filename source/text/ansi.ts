/**
 * The one ANSI/VT stripper of the tree. Terminal output to plain text: escape sequences removed,
 * carriage-return overprinting resolved the way a terminal would show the line, so the alert
 * scanner's rules match what the developer saw (it runs only around hits, on decoded lines).
 */

// ESC [ params intermediates final, or the 8-bit CSI (U+009B).
const CSI = /(?:\x1b\[|\x9b)([\x30-\x3f]*)[\x20-\x2f]*([\x40-\x7e])/y;
// OSC, DCS, SOS, PM, APC: a string up to BEL or ST (ESC \), or to the end when unterminated.
const STRING_SEQUENCE = /(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?/y;
// Any other escape: ESC, optional intermediates, one final byte (ESC 7, ESC ( B, ESC M ...).
const OTHER_ESCAPE = /\x1b[\x20-\x2f]*[\x30-\x7e]?/y;
const ALL_ESCAPES = new RegExp(`${CSI.source}|${STRING_SEQUENCE.source}|${OTHER_ESCAPE.source}`, 'g');
// Colour and style (SGR): the only sequence a view that shows program output keeps.
const SGR = /^\x1b\[[0-9;:]*m$/;
// Controls a line never shows; tab and newline stay.
const INVISIBLE = /[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f]/g;
const HAS_INVISIBLE = /[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f]/;
const ANY_ESCAPE = /[\x1b\x90\x98\x9b\x9c\x9d\x9e\x9f]/;

/** `text` without ANSI/VT escape sequences or stray controls; `\r` overprinting applied per line. */
export function stripAnsi(text: string): string {
  if (text.includes('\r')) return text.split('\n').map(renderLine).join('\n');
  const plain = ANY_ESCAPE.test(text) ? text.replace(ALL_ESCAPES, '') : text;
  return HAS_INVISIBLE.test(plain) ? plain.replace(INVISIBLE, '') : plain;
}

/** `text` without any escape sequence (nothing else changed): what a terminal-bound view builds on. */
export function removeEscapes(text: string): string {
  return ANY_ESCAPE.test(text) ? text.replace(ALL_ESCAPES, '') : text;
}

/** `text` with colour (SGR) sequences kept and every other escape (OSC titles and clipboard, cursor moves, clears, DCS) dropped. */
export function keepOnlyColours(text: string): string {
  return ANY_ESCAPE.test(text) ? text.replace(ALL_ESCAPES, (sequence) => (SGR.test(sequence) ? sequence : '')) : text;
}

/** Index just past the escape sequence starting at `at`, or `at` when none starts there. */
function escapeEnd(text: string, at: number): number {
  for (const pattern of [CSI, STRING_SEQUENCE, OTHER_ESCAPE]) {
    pattern.lastIndex = at;
    if (pattern.test(text)) return pattern.lastIndex;
  }
  return at;
}

/**
 * One line as a terminal leaves it: `\r` returns to column 0 and later text overwrites earlier
 * text; erase-in-line (`CSI K`) and cursor-to-column (`CSI G`) are honoured because spinners and
 * progress bars rely on them to clear what they drew before.
 */
function renderLine(line: string): string {
  const cells: string[] = [];
  let cursor = 0;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    const code = line.charCodeAt(i);
    if (code === 0x0d) {
      cursor = 0;
      continue;
    }
    if (code === 0x1b || (code >= 0x90 && code <= 0x9f)) {
      CSI.lastIndex = i;
      const csi = CSI.exec(line);
      if (csi) {
        cursor = applyCursorCode(cells, cursor, csi[1], csi[2]);
        i = CSI.lastIndex - 1;
        continue;
      }
      const end = escapeEnd(line, i);
      if (end > i) {
        i = end - 1;
        continue;
      }
    }
    if (code < 0x20 && code !== 0x09) continue;
    if (code === 0x7f) continue;
    cells[cursor++] = ch;
  }
  // A trailing `\r` (CRLF output) leaves the line as drawn; holes from cursor jumps become spaces.
  let out = '';
  for (let c = 0; c < cells.length; c++) out += cells[c] ?? ' ';
  return out;
}

function applyCursorCode(cells: string[], cursor: number, params: string, final: string): number {
  const n = Number.parseInt(params, 10);
  if (final === 'K') {
    if (params === '' || params === '0') cells.length = Math.min(cells.length, cursor);
    else if (params === '1') for (let c = 0; c <= cursor && c < cells.length; c++) cells[c] = ' ';
    else if (params === '2') cells.length = 0;
    return cursor;
  }
  if (final === 'G') return Number.isNaN(n) || n < 1 ? 0 : n - 1;
  if (final === 'D') return Math.max(0, cursor - (Number.isNaN(n) || n < 1 ? 1 : n));
  if (final === 'C') return cursor + (Number.isNaN(n) || n < 1 ? 1 : n);
  return cursor;
}
