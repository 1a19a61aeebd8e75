/**
 * The alert scanner (spec 1: process output → alert store): reads one process's output as it
 * arrives and reports compile errors, panics and exceptions as ScannedAlerts, one per report.
 *
 * Speed: most output is ordinary log lines. The raw bytes of each chunk are searched for the
 * rules' literal fragments (fragment-search.ts) with no UTF-8 decoding and no line splitting;
 * only lines holding a fragment are decoded, cleaned and matched, and while a multi-line report
 * (stack, traceback, goroutine trace) is open, lines are read one by one until it ends.
 */
import type {AlertSeverity, ScannedAlert} from '../../incidents/types.js';
import {stripAnsi} from '../../text/ansi.js';
import {continues, newBlockState, PROGRESS_NOISE, type BlockState} from './blocks.js';
import {appLocation, pointedLocation, stackFrames} from './locations.js';
import {FragmentSearch} from './fragment-search.js';
import {FRAGMENTS, RULES, type AlertRule, type Head, type Rule} from './rules.js';

export interface AlertScannerHandlers {
  /** `printedAt`: epoch ms the chunk holding the report's first line arrived (given to `write`), not when the report closed. */
  onAlert(alert: ScannedAlert, printedAt: number): void;
  onBuildSuccess?(): void;
}

export interface AlertScannerOptions {
  /**
   * Close an open multi-line report after this many ms without output (an unref'd timer).
   * Off by default: callers that know when output went quiet call `flush()` instead.
   */
  idleMs?: number;
}

export interface AlertScanner {
  /** Output as it arrives, split anywhere; bytes need not be valid UTF-8. `at`: when it arrived (epoch ms). */
  write(chunk: Buffer | Uint8Array | string, at?: number): void;
  /** Ends an open multi-line report now (the output went quiet); a partial line stays buffered. */
  flush(): void;
  /** The output ended: the last partial line is read and every open report is reported. */
  end(): void;
  /** Bytes held between writes (partial line + open report), bounded whatever the input. */
  readonly bufferedBytes: number;
}

/** Bytes of one line that are kept; the rest of a longer line is dropped. */
export const MAX_LINE_BYTES = 16 * 1024;
/** Characters of an alert's `raw` text. */
export const MAX_RAW_CHARS = 8 * 1024;
const MAX_MESSAGE_CHARS = 2000;
const MAX_BLOCK_LINES = 200;
// Lines kept for a look back at the header Node/Python print above an exception.
const RECENT_LINES = 4;

// --- the fragment search -------------------------------------------------------------------------

const SEARCH = new FragmentSearch(FRAGMENTS);
/** Which rules (indices into RULES, ascending) may match a line holding each fragment. */
const RULES_BY_FRAGMENT: number[][] = FRAGMENTS.map((fragment) => RULES.flatMap((rule, index) => (rule.needs.includes(fragment) ? [index] : [])));
// Scratch marks for candidateRules (the scanner never re-enters it).
const ruleMarks = new Uint8Array(RULES.length);

/** Rules worth trying on the raw line bytes[start, end), in table order; empty for most lines. */
function candidateRules(bytes: Buffer, start: number, end: number): Rule[] {
  let found = 0;
  SEARCH.each(bytes, start, end, (fragment) => {
    for (const index of RULES_BY_FRAGMENT[fragment]) ruleMarks[index] = 1;
    found++;
  });
  if (found === 0) return [];
  const rules: Rule[] = [];
  for (let index = 0; index < ruleMarks.length; index++) {
    if (ruleMarks[index] === 0) continue;
    ruleMarks[index] = 0;
    rules.push(RULES[index]);
  }
  return rules;
}

/** Raw line bytes as text: UTF-8 decoded (invalid bytes become U+FFFD), terminal codes resolved. */
function decodeLine(bytes: Buffer, start: number, end: number): string {
  return stripAnsi(bytes.toString('utf8', start, end));
}

/** A raw line kept as latin1 (bytes as they are, cheap to copy) made readable. */
function readableLatin1(raw: string): string {
  return stripAnsi(Buffer.from(raw, 'latin1').toString('utf8'));
}

// --- one process's scanner -----------------------------------------------------------------------

interface OpenBlock {
  rule: AlertRule;
  head: Head;
  severity: AlertSeverity;
  compile: boolean;
  state: BlockState;
  /** Header lines printed before the first line (Node caret header), then the first line. */
  lead: string[];
  headerLocation: string;
  body: string[];
  bodyChars: number;
  /** The latest line taken, kept even when the body is full (a traceback ends with its exception). */
  tail: string | undefined;
  /** When its first line (header included) was printed. */
  at: number;
}

/** Whole '\n'-terminated lines of a caller's chunk, not yet copied (the caller may reuse the chunk). */
interface Segment {
  bytes: Buffer;
  from: number;
  to: number;
}

export function createAlertScanner(handlers: AlertScannerHandlers, options: AlertScannerOptions = {}): AlertScanner {
  const carry = Buffer.allocUnsafe(MAX_LINE_BYTES);
  let carryLength = 0;
  let carryActive = false;
  let block: OpenBlock | undefined;
  // The last lines seen, oldest first: raw latin1 lines, or a segment of lines skipped unread.
  let recent: Array<string | Segment> = [];
  // When each item of `recent` arrived.
  let recentAt: number[] = [];
  // When the line being read arrived: its chunk's time, or for a line carried over, its first part's.
  let lineAt = 0;
  let carryAt = 0;
  let ended = false;
  // Compile alerts reported since the last summary line or build success (see AlertRule.summary).
  let compileSinceSummary = 0;
  let idleTimer: NodeJS.Timeout | undefined;

  function remember(item: string | Segment): void {
    recent.push(item);
    recentAt.push(lineAt);
    // Every item holds at least one line, so the last RECENT_LINES items are enough.
    if (recent.length > RECENT_LINES) {
      recent.shift();
      recentAt.shift();
    }
  }

  /** The last RECENT_LINES raw lines (latin1), oldest first; `times` gets when each arrived. */
  function recentLines(times: number[] = []): string[] {
    const lines: string[] = [];
    for (let i = recent.length - 1; i >= 0 && lines.length < RECENT_LINES; i--) {
      const item = recent[i];
      if (typeof item === 'string') {
        lines.push(item);
        times.push(recentAt[i]);
        continue;
      }
      let end = item.to - 1; // the '\n' ending the segment's last line
      while (end >= item.from && lines.length < RECENT_LINES) {
        const start = end > item.from ? Math.max(item.from, item.bytes.lastIndexOf(10, end - 1) + 1) : item.from;
        let stop = Math.min(end, start + MAX_LINE_BYTES);
        if (stop > start && item.bytes[stop - 1] === 0x0d) stop--;
        lines.push(item.bytes.toString('latin1', start, stop));
        times.push(recentAt[i]);
        end = start - 1;
      }
    }
    times.reverse();
    return lines.reverse();
  }

  /** Copies what `recent` still points at in the caller's chunk before write() returns. */
  function detachRecent(): void {
    if (!recent.some((item) => typeof item !== 'string')) return;
    const times: number[] = [];
    recent = recentLines(times);
    recentAt = times;
  }

  function feedLine(bytes: Buffer, start: number, lineEnd: number): void {
    let end = lineEnd - start > MAX_LINE_BYTES ? start + MAX_LINE_BYTES : lineEnd;
    if (end > start && bytes[end - 1] === 0x0d) end--;
    if (block) {
      const clean = decodeLine(bytes, start, end);
      const verdict = continues(block.state, clean);
      if (verdict !== 'stop') {
        addToBlock(block, clean);
        remember(bytes.toString('latin1', start, end));
        if (verdict === 'last') closeBlock();
        return;
      }
      closeBlock();
    }
    matchLine(bytes, start, end);
    remember(bytes.toString('latin1', start, end));
  }

  function matchLine(bytes: Buffer, start: number, end: number): void {
    const rules = candidateRules(bytes, start, end);
    if (rules.length === 0) return;
    const clean = decodeLine(bytes, start, end);
    for (const rule of rules) {
      const m = rule.pattern.exec(clean);
      if (!m) continue;
      if (rule.kind === 'success') {
        if (rule.unless?.test(clean)) continue;
        compileSinceSummary = 0;
        handlers.onBuildSuccess?.();
        return;
      }
      const head = rule.head(m);
      if (!head) continue;
      if (rule.summary) {
        const alone = compileSinceSummary === 0;
        compileSinceSummary = 0;
        if (!alone) return;
      }
      openAlert(rule, head, clean);
      return;
    }
  }

  function openAlert(rule: AlertRule, head: Head, line: string): void {
    let lead = [line];
    let headerLocation = '';
    let at = lineAt;
    const times: number[] = [];
    const header = rule.lookback?.(recentLines(times).map(readableLatin1));
    if (header) {
      lead = [...header.lines, line];
      headerLocation = header.location;
      // The header lines are the last ones before this line: the report was printed from the first of them.
      at = times[times.length - header.lines.length] ?? at;
      if (header.message) head = {...head, message: head.message ? `${head.message}: ${header.message}` : header.message};
    }
    const kind = head.block === undefined ? rule.block : (head.block ?? undefined);
    const opened: OpenBlock = {
      rule,
      head,
      severity: head.severity ?? rule.severity,
      compile: head.compile ?? rule.compile,
      state: newBlockState(kind ?? 'frames'),
      lead,
      headerLocation,
      body: [],
      bodyChars: 0,
      tail: undefined,
      at,
    };
    if (kind === undefined) {
      emit(opened);
      return;
    }
    block = opened;
  }

  function addToBlock(open: OpenBlock, line: string): void {
    open.tail = line;
    if (open.body.length >= MAX_BLOCK_LINES || open.bodyChars > MAX_RAW_CHARS) return;
    open.body.push(line);
    open.bodyChars += line.length + 1;
  }

  function closeBlock(): void {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = undefined;
    if (!block) return;
    const open = block;
    block = undefined;
    emit(open);
  }

  function emit(open: OpenBlock): void {
    const body = open.body.slice();
    if (open.tail !== undefined && body[body.length - 1] !== open.tail) body.push(open.tail);
    while (body.length > 0 && body[body.length - 1].trim() === '') body.pop();
    // A report that lists several problems (ESLint's stylish block) becomes one alert per problem.
    const split = open.rule.split?.(open.head, open.lead, body);
    if (split) {
      for (const part of split) report(open, part.head, part.lines, []);
      return;
    }
    const head = open.rule.finish ? open.rule.finish(open.head, body) : open.head;
    if (head) report(open, head, open.lead, body);
  }

  function report(open: OpenBlock, head: Head, lead: readonly string[], body: readonly string[]): void {
    const location = head.location || pointedLocation(body) || appLocation(body) || open.headerLocation;
    let raw = [...lead, ...body].join('\n');
    if (raw.length > MAX_RAW_CHARS) raw = `${raw.slice(0, MAX_RAW_CHARS - 1)}…`;
    let message = head.message.trim() || fallbackMessage(head.category, location, body);
    if (message.length > MAX_MESSAGE_CHARS) message = `${message.slice(0, MAX_MESSAGE_CHARS - 1)}…`;
    if (head.compile ?? open.compile) compileSinceSummary++;
    const frames = stackFrames(body);
    handlers.onAlert(
      {
        severity: head.severity ?? open.severity,
        category: head.category,
        message,
        location,
        compile: head.compile ?? open.compile,
        raw,
        ...(frames.length > 0 ? {frames} : {}),
      },
      open.at,
    );
  }

  function armIdle(): void {
    if (!options.idleMs || options.idleMs <= 0) return;
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = setTimeout(closeBlock, options.idleMs);
    idleTimer.unref();
  }

  /** bytes[from, to) holds whole lines, each ending in '\n'. */
  function scanRegion(bytes: Buffer, from: number, to: number): void {
    let pos = from;
    while (pos < to) {
      if (block) {
        const newline = bytes.indexOf(10, pos);
        feedLine(bytes, pos, newline);
        pos = newline + 1;
        continue;
      }
      const hit = SEARCH.find(bytes, pos, to);
      if (hit === -1) {
        remember({bytes, from: pos, to});
        return;
      }
      const lineStart = Math.max(pos, bytes.lastIndexOf(10, hit) + 1);
      if (lineStart > pos) remember({bytes, from: pos, to: lineStart});
      const newline = bytes.indexOf(10, hit);
      feedLine(bytes, lineStart, newline);
      pos = newline + 1;
    }
  }

  function appendCarry(bytes: Buffer, from: number, to: number): void {
    if (!carryActive) carryAt = lineAt;
    carryActive = true;
    const count = Math.min(MAX_LINE_BYTES - carryLength, to - from);
    if (count <= 0) return;
    bytes.copy(carry, carryLength, from, from + count);
    carryLength += count;
  }

  function feedCarry(): void {
    const length = carryLength;
    carryLength = 0;
    carryActive = false;
    const now = lineAt;
    lineAt = carryAt;
    feedLine(carry, 0, length);
    lineAt = now;
  }

  function write(chunk: Buffer | Uint8Array | string, at = Date.now()): void {
    if (ended) return;
    lineAt = at;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    if (carryActive) {
      const newline = bytes.indexOf(10);
      if (newline === -1) {
        appendCarry(bytes, 0, bytes.length);
        return;
      }
      appendCarry(bytes, 0, newline);
      feedCarry();
      start = newline + 1;
    }
    const last = bytes.lastIndexOf(10);
    if (last >= start) {
      scanRegion(bytes, start, last + 1);
      start = last + 1;
    }
    if (start < bytes.length) appendCarry(bytes, start, bytes.length);
    detachRecent();
    if (block) armIdle();
  }

  return {
    write,
    flush: closeBlock,
    end() {
      if (ended) return;
      if (carryActive) feedCarry();
      closeBlock();
      ended = true;
    },
    get bufferedBytes() {
      return carryLength + (block ? block.bodyChars : 0);
    },
  };
}

/**
 * The message of an alert whose report printed none (`raise KeyError`, a bare `Traceback` header,
 * `java.lang.NullPointerException` alone): what was raised and where, so a person knows where to look.
 */
function fallbackMessage(category: string, location: string, body: readonly string[]): string {
  if (location) return `${category} at ${location}`;
  const line = body.map((text) => text.trim()).find((text) => text !== '' && !PROGRESS_NOISE.test(text) && !/^(?:at|from|File) /.test(text));
  return line ? `${category}: ${line}` : `${category} (no message printed)`;
}

/** One-shot scan of a whole text (tests, pasted logs). */
export function scanText(text: string): {alerts: ScannedAlert[]; buildSuccesses: number} {
  const alerts: ScannedAlert[] = [];
  let buildSuccesses = 0;
  const scanner = createAlertScanner({
    onAlert: (alert) => alerts.push(alert),
    onBuildSuccess: () => buildSuccesses++,
  });
  scanner.write(text);
  scanner.end();
  return {alerts, buildSuccesses};
}
