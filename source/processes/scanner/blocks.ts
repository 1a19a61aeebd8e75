/**
 * Which lines after an alert's first line still belong to it: a stack's frames, a goroutine
 * trace, a traceback up to its exception line, a compiler's snippet. One alert per report.
 */

export type BlockKind =
  /** JS, Java, .NET, Ruby: `    at …` / `\tfrom …` frames, `Caused by:`, Node's `{ code: … }` tail. */
  | 'frames'
  /** Go panic / fatal error: blank lines, `goroutine N [...]:`, function lines, tab-indented files. */
  | 'go'
  /** Python traceback: indented lines, ending with (and including) the exception line. */
  | 'python'
  /** Compiler diagnostics: indented lines, source snippets (`3 |`, `> 5 |`), `help:`/`note:`. */
  | 'indented'
  /** Lines up to the next blank line (webpack's `ERROR in` block). */
  | 'paragraph'
  /** Like paragraph, but blank lines before the first content line are part of it. */
  | 'lead-paragraph'
  /** Consecutive `npm ERR!` / `npm error` lines. */
  | 'npm'
  /** Rust panic: the message line, `note:` lines, `stack backtrace:` and its numbered frames. */
  | 'rust-panic'
  /** A web framework's log line before a Python traceback (Django, Flask, Werkzeug): the traceback, through its exception line. */
  | 'python-lead'
  /** A log record (Java's `SEVERE:`): an exception line and its frames may follow. */
  | 'log-record'
  /** The `go` command: tab-indented hints, and a `go.mod:N: …` line right after `errors parsing go.mod:`. */
  | 'go-tool'
  /** ESLint's stylish format: the problem lines of one file. */
  | 'eslint'
  /** Prisma's client error: the invocation line, the call site, blank lines, the snippet, through the cause line. */
  | 'prisma';

/** `take`: the line belongs; `last`: it belongs and ends the block; `stop`: it does not belong. */
export type Verdict = 'take' | 'last' | 'stop';

export interface BlockState {
  kind: BlockKind;
  /** Lines taken so far (counted even when no longer stored). */
  taken: number;
  sawFrame: boolean;
  /** Inside Node's `{ code: …, … }` property tail after the last frame. */
  inProperties: boolean;
  sawContent: boolean;
  inRequireStack: boolean;
  /** Go: a goroutine header or frame was taken, so a `panic:` line at column 0 starts a new panic. */
  sawTrace: boolean;
  /** Python lead: the `Traceback` line was taken. */
  inTraceback: boolean;
}

export function newBlockState(kind: BlockKind): BlockState {
  return {kind, taken: 0, sawFrame: false, inProperties: false, sawContent: false, inRequireStack: false, sawTrace: false, inTraceback: false};
}

const FRAME = /^\s+(?:at|from)\s/;
const ELIDED = /^\s+\.\.\. \d+ (?:more|lines matching|common frames omitted)/;
const GO_FUNCTION = /^[\w./*()[\]{}$~-]+\(.*\)(?: \.\.\.)?$/;
/**
 * Progress lines a dev server prints between an error header and its message (`compiling...`,
 * `wait  - compiling...`, `<i> [webpack-dev-server] …`, `10% building 1/3 entries`): never a message.
 */
export const PROGRESS_NOISE =
  /^(?:<[a-z]>\s*)?(?:\[[\w.-]+\]\s*|[iℹ]\s+｢\w+｣:\s*|wait\s+-\s+|-\s+)?(?:\d{1,3}%\s.*|(?:re)?(?:compiling|building|bundling)\b.*|files successfully emitted\b.*|issues checking in progress\b.*|webpack-dev-server\b.*|project is running at\b.*|on your network:.*|local:.*)$/i;
// ESLint stylish: `  3:10  error  'x' is defined but never used  no-unused-vars`
export const ESLINT_PROBLEM = /^\s+(\d+):(\d+)\s+(error|warning)\s+(.*?)\s*$/;
const SNIPPET = /^(?:\d+\s*[|│+-]|>\s*\d+\s*[|│]|\d+ |\s*[|│]|(?:help|note|hint)(?:\[\w+\])?: |= )/;

/** Whether `line` (ANSI stripped) continues the block; updates `state`. */
export function continues(state: BlockState, line: string): Verdict {
  const verdict = judge(state, line);
  if (verdict !== 'stop') state.taken++;
  return verdict;
}

function judge(state: BlockState, line: string): Verdict {
  const blank = line.trim() === '';
  switch (state.kind) {
    case 'frames':
      return framesVerdict(state, line, blank);
    case 'go':
      if (blank || /^\s/.test(line)) {
        if (!blank) state.sawTrace = true;
        return 'take';
      }
      // Go indents the panics of a chain (`\tpanic: b`); one at column 0 is the next panic.
      if (/^panic: /.test(line)) return 'stop';
      if (/^(?:goroutine \d+\b|\[signal |created by |\.\.\.additional frames elided)/.test(line)) {
        if (!line.startsWith('[signal ')) state.sawTrace = true;
        return 'take';
      }
      if (GO_FUNCTION.test(line)) {
        state.sawTrace = true;
        return 'take';
      }
      return 'stop';
    case 'python-lead':
      if (!state.inTraceback) {
        if (/^Traceback \(most recent call last\):?\s*$/.test(line)) {
          state.inTraceback = true;
          return 'take';
        }
        return 'stop';
      }
      if (blank) return 'stop';
      if (/^\s/.test(line)) return 'take';
      return /^[A-Za-z_][\w.]*(?::|\s*$)/.test(line) ? 'last' : 'stop';
    case 'log-record':
      if (blank) return 'stop';
      if (FRAME.test(line) || ELIDED.test(line) || /^Caused by: /.test(line)) {
        state.sawFrame = true;
        return 'take';
      }
      // `…threw exception [x] with root cause` is followed by the exception's class line.
      return !state.sawFrame && state.taken === 0 && /^[\w$.]+(?:Exception|Error)\b(?::|$)/.test(line) ? 'take' : 'stop';
    case 'go-tool':
      if (blank) return 'stop';
      if (/^\t/.test(line)) return 'take';
      return state.taken === 0 && /^\S+\.(?:mod|work|sum):\d+(?::\d+)?: /.test(line) ? 'take' : 'stop';
    case 'eslint':
      return ESLINT_PROBLEM.test(line) ? 'take' : 'stop';
    case 'prisma':
      // Blank lines, the snippet (`  41 …`, `→ 42 …`), the invocation and call-site lines belong; the next line at column 0 is the cause.
      if (blank || /^\s/.test(line) || /^→/.test(line) || /^Invalid `[^`]+` invocation\b/.test(line) || /^\S+:\d+:\d+\s*$/.test(line)) return 'take';
      return 'last';
    case 'python':
      if (blank) return 'stop';
      if (/^\s/.test(line)) return 'take';
      return /^[A-Za-z_][\w.]*(?::|\s*$)/.test(line) ? 'last' : 'stop';
    case 'indented':
      if (blank || /^\s/.test(line) || SNIPPET.test(line)) return 'take';
      // Vite's `Transform failed with 1 error:` goes on with esbuild's located line.
      return state.taken === 0 && /^\S+:\d+:\d+: ERROR: /.test(line) ? 'take' : 'stop';
    case 'paragraph':
    case 'lead-paragraph':
      if (blank) return state.kind === 'lead-paragraph' && !state.sawContent ? 'take' : 'stop';
      if (/^(?:ERROR in |WARNING in |webpack \d|webpack compiled)/.test(line)) return 'stop';
      // Progress noise before the message does not end the blank lead of `Failed to compile.`.
      if (!PROGRESS_NOISE.test(line.trim())) state.sawContent = true;
      return 'take';
    case 'npm':
      return /^npm (?:ERR!|error)/.test(line) ? 'take' : 'stop';
    case 'rust-panic':
      if (state.taken === 0 && !blank) return 'take';
      return /^(?:note: |stack backtrace:|\s+\d+: |\s+at )/.test(line) ? 'take' : 'stop';
  }
}

function framesVerdict(state: BlockState, line: string, blank: boolean): Verdict {
  if (state.inProperties) {
    if (/^\}\s*$/.test(line)) {
      state.inProperties = false;
      return 'last';
    }
    return blank ? 'stop' : 'take';
  }
  if (blank) return 'stop';
  if (FRAME.test(line)) {
    state.sawFrame = true;
    // `    at process.processTicksAndRejections (node:…:95:5) {` opens the error's own properties.
    if (/\{\s*$/.test(line)) state.inProperties = true;
    return 'take';
  }
  if (ELIDED.test(line)) return 'take';
  if (/^(?:Caused by: |Emitted 'error' event |\s+Suppressed: |\s+--- End of )/.test(line)) return 'take';
  // Node's `Require stack:` list comes between the message and the frames.
  if (!state.sawFrame && /^Require stack:\s*$/.test(line)) {
    state.inRequireStack = true;
    return 'take';
  }
  if (state.inRequireStack && !state.sawFrame && /^- \S/.test(line)) return 'take';
  return 'stop';
}
