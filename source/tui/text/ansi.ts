// Colour and style sequences (SGR) end in 'm'; every other CSI moves the cursor or erases.
const CSI = /\u001b\[[0-?]*[ -/]*[@-~]/g;
const OSC = /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?/g;
// Charset designations (ESC ( B) and two-byte escapes (ESC 7, ESC M, ESC =, ...).
const SHORT_ESCAPE = /\u001b(?:[()*+][0-9A-Za-z]|[0-~])/g;
const SGR = /\u001b\[[0-9;:]*m/g;

/** Text without any escape sequence, for matching and measuring. */
export function stripAnsi(text: string): string {
  return text.replace(OSC, '').replace(CSI, '').replace(SHORT_ESCAPE, '');
}

/** Keeps colours, drops cursor movement, erasing, titles and charset switches. */
export function keepOnlyColours(text: string): string {
  return text
    .replace(OSC, '')
    .replace(CSI, sequence => (sequence.endsWith('m') ? sequence : ''))
    .replace(SHORT_ESCAPE, sequence => (sequence === '\u001b[' ? sequence : ''));
}

export function sgrSequences(text: string): string[] {
  return text.match(SGR) ?? [];
}

export function isSgrReset(sequence: string): boolean {
  return sequence === '\u001b[m' || sequence === '\u001b[0m';
}
