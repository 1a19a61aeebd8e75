// Stripping is the tree's one stripper (source/text/ansi.ts); what is TUI-only here is carrying
// colours across lines.
export {keepOnlyColours, stripAnsi} from '../../text/ansi.js';

const SGR = /\u001b\[[0-9;:]*m/g;

export function sgrSequences(text: string): string[] {
  return text.match(SGR) ?? [];
}

export function isSgrReset(sequence: string): boolean {
  return sequence === '\u001b[m' || sequence === '\u001b[0m';
}
