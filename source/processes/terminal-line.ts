/**
 * A process's output as a terminal shows it (issue 26 item 4): within a line, a carriage return
 * and the cursor moves `CSI G`, `CSI D`, `CSI C` rewrite what was drawn, and `CSI K` (0, 1, 2)
 * erases it, so a spinner's frames (npm: `ESC[1G ESC[0K ⠙`) replace each other instead of piling
 * up in front of the error printed after them. Everything else passes as it came: colours (SGR)
 * stay for the views that show them, and so do sequences this model does not act on.
 *
 * Speed: ordinary output is whole lines with at most colour codes. Such a chunk is searched for
 * `\r` not followed by `\n` and for ESC with native byte search only, and passed on as it is (the
 * same Buffer, nothing decoded). Only a line holding a redraw is decoded and rendered. The
 * unterminated end of a chunk is held until its line ends (a later chunk may redraw it), or until
 * the output goes quiet for `idleMs` (a prompt is shown without waiting for its newline).
 */
import {StringDecoder} from 'node:string_decoder';

const LF = 0x0a;
const CR = 0x0d;
const ESC = 0x1b;
const BRACKET = 0x5b;
/** A held line longer than this is compacted (redrawn) or passed on (plain) so memory stays bounded. */
const HOLD_LIMIT = 16 * 1024;

/** `at`: epoch ms the first byte of `bytes` arrived (for a held line: when its first part came). */
export type LineSink = (bytes: Buffer, at: number) => void;

export interface TerminalLinesOptions {
  /** Pass a held partial line on after this many ms without output (an unref'd timer); off when 0. */
  idleMs?: number;
}

export class TerminalLines {
  /** The current line's bytes since its start, held until it ends. */
  private held: Buffer[] = [];
  private heldBytes = 0;
  private heldAt = 0;
  /** What was already passed on of the current line (an idle flush). */
  private emitted: Buffer | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sink: LineSink,
    private readonly options: TerminalLinesOptions = {},
  ) {}

  /** Bytes of an unfinished line held back. */
  get holding(): number {
    return this.heldBytes;
  }

  write(chunk: Buffer, at = Date.now()): void {
    if (chunk.length === 0) return;
    let start = 0;
    if (this.heldBytes > 0 || this.emitted) {
      const newline = chunk.indexOf(LF);
      if (newline === -1) {
        this.hold(chunk, 0, at);
        this.compactIfLong();
        this.armIdle();
        return;
      }
      this.hold(chunk, 0, at, newline);
      this.finishHeld();
      start = newline + 1;
    }
    const last = chunk.lastIndexOf(LF);
    if (last >= start) {
      this.passLines(chunk, start, last + 1, at);
      start = last + 1;
    }
    if (start < chunk.length) {
      this.hold(chunk, start, at);
      this.compactIfLong();
    }
    this.armIdle();
  }

  /** Passes on what a terminal shows of the held partial line now (the output went quiet). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.heldBytes === 0) return;
    const line = this.heldLine();
    const safe = safeEnd(line);
    const shown = hasRedraw(line, 0, safe) ? render(line.subarray(0, safe)) : line.subarray(0, safe);
    const fresh = this.unsent(shown);
    if (fresh.length > 0) this.sink(fresh, this.heldAt);
    this.emitted = Buffer.from(shown);
  }

  /** The output ended: the held line is passed on as shown. */
  end(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.heldBytes === 0) return;
    const line = this.heldLine();
    const shown = hasRedraw(line, 0, line.length) ? render(line) : line;
    const fresh = this.unsent(shown);
    this.reset();
    if (fresh.length > 0) this.sink(fresh, this.heldAt);
  }

  /** Whole lines chunk[from, to) (the last ends in '\n'): passed as they are, but for lines holding a redraw. */
  private passLines(chunk: Buffer, from: number, to: number, at: number): void {
    let start = from;
    for (;;) {
      const redraw = firstRedraw(chunk, start, to);
      if (redraw === -1) break;
      const lineStart = Math.max(start, chunk.lastIndexOf(LF, redraw) + 1);
      const newline = chunk.indexOf(LF, redraw);
      if (lineStart > start) this.sink(chunk.subarray(start, lineStart), at);
      this.sink(withNewline(render(chunk.subarray(lineStart, newline)), chunk, newline), at);
      start = newline + 1;
      if (start >= to) return;
    }
    this.sink(start === 0 && to === chunk.length ? chunk : chunk.subarray(start, to), at);
  }

  /** The held line ends with the '\n' that was just held (its last byte). */
  private finishHeld(): void {
    const line = this.heldLine();
    const at = this.heldAt;
    const newline = line.length - 1;
    const shown = hasRedraw(line, 0, newline) ? withNewline(render(line.subarray(0, newline)), line, newline) : line;
    const fresh = this.unsent(shown);
    this.reset();
    if (fresh.length > 0) this.sink(fresh, at);
  }

  /** `shown` without the part already passed on; a line redrawn after it was passed on starts anew below it. */
  private unsent(shown: Buffer): Buffer {
    const before = this.emitted;
    if (!before) return shown;
    if (shown.length >= before.length && shown.subarray(0, before.length).equals(before)) return shown.subarray(before.length);
    return Buffer.concat([Buffer.from('\r\n'), shown]);
  }

  private hold(chunk: Buffer, from: number, at: number, through?: number): void {
    if (this.heldBytes === 0 && !this.emitted) this.heldAt = at;
    // Copied: the caller may reuse its chunk.
    const part = Buffer.from(chunk.subarray(from, through === undefined ? chunk.length : through + 1));
    this.held.push(part);
    this.heldBytes += part.length;
  }

  private heldLine(): Buffer {
    if (this.held.length > 1) this.held = [Buffer.concat(this.held)];
    return this.held[0] ?? Buffer.alloc(0);
  }

  /** A spinner left running for minutes redraws one line: keep what it shows, not every frame. */
  private compactIfLong(): void {
    if (this.heldBytes <= HOLD_LIMIT) return;
    const line = this.heldLine();
    const safe = safeEnd(line);
    if (!this.emitted && hasRedraw(line, 0, safe)) {
      const state = renderState(line.subarray(0, safe));
      const compact = Buffer.concat([Buffer.from(state), line.subarray(safe)]);
      if (compact.length <= HOLD_LIMIT) {
        this.held = [compact];
        this.heldBytes = compact.length;
        return;
      }
    }
    // A plain line this long (or one that draws more than fits): passed on as it is so far.
    const fresh = this.unsent(hasRedraw(line, 0, safe) ? render(line.subarray(0, safe)) : line.subarray(0, safe));
    const rest = Buffer.from(line.subarray(safe));
    const at = this.heldAt;
    this.reset();
    if (fresh.length > 0) this.sink(fresh, at);
    if (rest.length > 0) {
      this.held = [rest];
      this.heldBytes = rest.length;
    }
  }

  private reset(): void {
    this.held = [];
    this.heldBytes = 0;
    this.emitted = undefined;
  }

  private armIdle(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.options.idleMs || this.heldBytes === 0) return;
    this.timer = setTimeout(() => this.flush(), this.options.idleMs);
    this.timer.unref();
  }
}

function withNewline(rendered: Buffer, source: Buffer, newline: number): Buffer {
  const crlf = newline > 0 && source[newline - 1] === CR;
  return Buffer.concat([rendered, Buffer.from(crlf ? '\r\n' : '\n')]);
}

/**
 * Where the first redraw in bytes[from, to) is (bytes up to `to` are whole lines), or -1: a `\r`
 * not ending its line, or `CSI <n> G|D|C|K`. Native byte search (memchr) between candidates.
 */
export function firstRedraw(bytes: Buffer, from: number, to: number): number {
  let found = -1;
  for (let i = from; ; i += 2) {
    i = bytes.indexOf(CR, i);
    if (i === -1 || i >= to) break;
    if (i + 1 < to && bytes[i + 1] !== LF) {
      found = i;
      break;
    }
  }
  const limit = found === -1 ? to : found;
  for (let i = from; ;) {
    i = bytes.indexOf(ESC, i);
    if (i === -1 || i >= limit) break;
    if (bytes[i + 1] !== BRACKET) {
      i++;
      continue;
    }
    let j = i + 2;
    while (j < to && bytes[j] >= 0x30 && bytes[j] <= 0x3f) j++;
    const final = bytes[j];
    if (final === 0x47 || final === 0x44 || final === 0x43 || final === 0x4b) return i;
    i = j;
  }
  return found;
}

/** Whether bytes[from, to) (one line, no '\n'; a `\r` as its last byte is a CRLF's) holds a redraw. */
function hasRedraw(bytes: Buffer, from: number, to: number): boolean {
  const end = to > from && bytes[to - 1] === CR ? to - 1 : to;
  const redraw = firstRedraw(bytes, from, end);
  if (redraw !== -1) return true;
  // firstRedraw skips a `\r` at `end - 1` (it takes it for a CRLF's); inside a line it is a redraw.
  return end > from && bytes[end - 1] === CR;
}

/**
 * The end of what can be shown of an unfinished line: not inside an escape sequence or a UTF-8
 * character, and not a last `\r` (the next chunk may bring its `\n`).
 */
function safeEnd(line: Buffer): number {
  let end = line.length;
  if (end > 0 && line[end - 1] === CR) end--;
  const esc = line.lastIndexOf(ESC, end - 1);
  if (esc !== -1 && esc >= end - 64 && !escapeComplete(line, esc, end)) end = esc;
  // A UTF-8 lead byte whose continuation bytes have not all come yet.
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const byte = line[end - back];
    if ((byte & 0xc0) === 0x80) continue;
    if (byte >= 0xc0) {
      const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
      if (back < need) end -= back;
    }
    break;
  }
  return end;
}

function escapeComplete(line: Buffer, esc: number, end: number): boolean {
  if (esc + 1 >= end) return false;
  const next = line[esc + 1];
  if (next === BRACKET) {
    for (let j = esc + 2; j < end; j++) if (line[j] >= 0x40 && line[j] <= 0x7e) return true;
    return false;
  }
  if (next === 0x5d || next === 0x50 || next === 0x58 || next === 0x5e || next === 0x5f) {
    for (let j = esc + 2; j < end; j++) if (line[j] === 0x07 || (line[j] === ESC && line[j + 1] === 0x5c)) return true;
    return false;
  }
  return true;
}

// --- rendering one line (the slow path) ----------------------------------------------------------

interface Cell {
  ch: string;
  /** The colour sequences in force when it was drawn, since the last reset. */
  pen: string;
  /** Sequences the model does not act on, printed just before it (kept as they came). */
  before: string;
}

// ESC [ params intermediates final | OSC/DCS/... up to BEL or ST | ESC and one final byte.
const SEQUENCE = /\x1b\[([\x30-\x3f]*)[\x20-\x2f]*([\x40-\x7e])|\x1b[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[\x20-\x2f]*[\x30-\x7e]/y;
const RESET = /^\x1b\[0*(?:;|m)/;
const PURE_RESET = /^\x1b\[0*m$/;
/** The pen of cells drawn before the line's first colour code: whatever the lines before left. */
const INHERIT = '\u0000';

interface LineState {
  cells: Cell[];
  cursor: number;
  pen: string;
  /** Unacted sequences after the last drawn character. */
  trailing: string;
}

function draw(text: string): LineState {
  const cells: Cell[] = [];
  let cursor = 0;
  let pen = INHERIT;
  let pending = '';
  for (let i = 0; i < text.length;) {
    const code = text.charCodeAt(i);
    if (code === CR) {
      cursor = 0;
      i++;
      continue;
    }
    if (code === ESC) {
      SEQUENCE.lastIndex = i;
      const m = SEQUENCE.exec(text);
      if (m) {
        const sequence = m[0];
        i = SEQUENCE.lastIndex;
        const final = m[2];
        if (final === 'm' && sequence[1] === '[') {
          pen = PURE_RESET.test(sequence) ? '' : RESET.test(sequence) || pen === INHERIT ? sequence : pen + sequence;
          continue;
        }
        if (final !== undefined && sequence[1] === '[' && 'GDCK'.includes(final)) {
          cursor = moveOrErase(cells, cursor, m[1], final);
          continue;
        }
        pending += sequence;
        continue;
      }
    }
    const point = text.codePointAt(i)!;
    const ch = point > 0xffff ? text.slice(i, i + 2) : text[i];
    i += ch.length;
    while (cells.length < cursor) cells.push({ch: ' ', pen: INHERIT, before: ''});
    cells[cursor++] = {ch, pen, before: pending};
    pending = '';
  }
  return {cells, cursor, pen, trailing: pending};
}

function moveOrErase(cells: Cell[], cursor: number, params: string, final: string): number {
  const n = Number.parseInt(params, 10);
  const count = Number.isNaN(n) || n < 1 ? 1 : n;
  switch (final) {
    case 'G':
      return count - 1;
    case 'D':
      return Math.max(0, cursor - count);
    case 'C':
      return cursor + count;
    default:
      // K: 0 (or none) to the end, 1 from the start through the cursor, 2 the whole line.
      if (params === '' || params === '0') cells.length = Math.min(cells.length, cursor);
      else if (params === '1') for (let c = 0; c <= cursor && c < cells.length; c++) cells[c] = {ch: ' ', pen: INHERIT, before: ''};
      else if (params === '2') cells.length = 0;
      return cursor;
  }
}

/** The change of colour state from `from` to `to`, as sequences. */
function penChange(from: string, to: string): string {
  if (from === to || to === INHERIT) return '';
  if (to === '') return '\x1b[0m';
  if (from === INHERIT || RESET.test(to)) return to;
  if (to.startsWith(from)) return to.slice(from.length);
  return `\x1b[0m${to}`;
}

function cellsText(state: LineState): string {
  let out = '';
  let pen = INHERIT;
  for (const cell of state.cells) {
    out += cell.before + penChange(pen, cell.pen) + cell.ch;
    if (cell.pen !== INHERIT) pen = cell.pen;
  }
  return out + penChange(pen, state.pen) + state.trailing;
}

/** One line (no '\n') as a terminal shows it, colours kept. */
export function render(line: Buffer): Buffer {
  return Buffer.from(cellsText(draw(new StringDecoder('utf8').end(line))));
}

/** The line as shown plus a cursor move back to where the cursor stands: drawing it again gives the same state. */
function renderState(line: Buffer): string {
  const state = draw(new StringDecoder('utf8').end(line));
  const text = cellsText(state);
  return state.cursor === state.cells.length ? text : `${text}\x1b[${state.cursor + 1}G`;
}
