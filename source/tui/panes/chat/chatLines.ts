import {formatRow, formatToolDetail} from '../../../agent/loop/transcript-text.js';
import {toTerminalLine} from '../../../text/terminal-safe.js';
import type {TranscriptRow} from '../../../agent/types.js';
import type {Turn} from './conversation.js';

/** How a line is drawn: the words are formatRow's (the CLI prints the same), the tone its colour. */
export type Tone = 'prompt' | 'auth' | 'notice' | 'tool-ok' | 'tool-fail' | 'detail' | 'answer' | 'text' | 'live' | 'error' | 'usage' | 'plan';

export interface ChatLine {
  text: string;
  tone: Tone;
  /** A tool row's key (`<turn>:<row>`): the line that can be selected and opened. */
  item?: string;
}

const toneOf = (row: TranscriptRow): Tone => {
  switch (row.kind) {
    case 'tool':
      return row.error !== undefined || (row.exitCode !== undefined && row.exitCode !== 0) ? 'tool-fail' : 'tool-ok';
    case 'agent-log':
      return 'detail';
    default:
      return row.kind;
  }
};

/** Cuts a line into pieces of at most `width` columns, at a space when there is one (plain text: no escapes left). */
export function wrapLine(text: string, width: number): string[] {
  if (width <= 0 || text.length <= width) return [text];
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > width) {
    const space = rest.lastIndexOf(' ', width);
    const cut = space > width / 2 ? space : width;
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut).replace(/^ /, '');
  }
  pieces.push(rest);
  return pieces;
}

function push(lines: ChatLine[], texts: string[], tone: Tone, width: number, indent = '', item?: string): void {
  texts.forEach((text, index) => {
    // A tool row stays one line (its summary, truncated when drawn): that line is what is selected.
    const wrapped = item ? [indent + text] : wrapLine(indent + text, width);
    for (const piece of wrapped) lines.push(index === 0 && item ? {text: piece, tone, item} : {text: piece, tone});
  });
}

/** One row's lines: a tool row's detail only when it is open. */
export function rowLines(row: TranscriptRow, key: string, open: boolean, width: number): ChatLine[] {
  const lines: ChatLine[] = [];
  if (row.kind === 'tool') {
    push(lines, formatRow(row), toneOf(row), width, '  ', key);
    const detail = formatToolDetail(row);
    if (open) push(lines, detail, 'detail', width, '    │ ');
  } else push(lines, formatRow(row), toneOf(row), width, row.kind === 'usage' ? '  ' : '');
  return lines;
}

export function turnLines(turn: Turn, expanded: ReadonlySet<string>, width: number): ChatLine[] {
  const lines: ChatLine[] = [];
  if (turn.prompt) push(lines, toTerminalLine(turn.prompt) ? [`> ${toTerminalLine(turn.prompt)}`] : [], 'prompt', width);
  turn.rows.forEach((row, index) => {
    const key = `${turn.id}:${index}`;
    lines.push(...rowLines(row, key, expanded.has(key), width));
  });
  if (turn.streamed) push(lines, formatRow({kind: 'text', text: turn.streamed}), 'live', width);
  lines.push({text: '', tone: 'text'});
  return lines;
}

const cache = new WeakMap<Turn, {signature: string; lines: ChatLine[]}>();

/**
 * A finished turn's lines are computed once per width and set of opened rows: a long
 * conversation costs nothing to redraw while the live turn streams.
 */
export function finishedTurnLines(turn: Turn, expanded: ReadonlySet<string>, width: number): ChatLine[] {
  const opened = [...expanded].filter((key) => key.startsWith(`${turn.id}:`)).sort();
  const signature = `${width}|${opened.join(',')}`;
  const kept = cache.get(turn);
  if (kept?.signature === signature) return kept.lines;
  const lines = turnLines(turn, expanded, width);
  cache.set(turn, {signature, lines});
  return lines;
}

/** The row behind a line's item key. */
export function rowOfItem(turns: readonly Turn[], item: string): TranscriptRow | undefined {
  const [turnId, index] = item.split(':').map(Number);
  return turns.find((turn) => turn.id === turnId)?.rows[index!];
}
