/**
 * The alert scanner's rule table (spec 1, error source `process:<id>`): the line rules of the
 * upstream's families — Node, TypeScript, Vite, webpack, Next.js, Go, Python, Rust, Java, Ruby,
 * .NET, generic — plus build-success lines. The first rule that matches a line wins.
 */
import type {AlertSeverity} from '../../incidents/types.js';
import type {BlockKind} from './blocks.js';
import {toGrepPattern} from './grep-pattern.js';
import {exceptionHeader} from './locations.js';

export type Family = 'node' | 'typescript' | 'vite' | 'esbuild' | 'webpack' | 'next' | 'go' | 'python' | 'rust' | 'java' | 'ruby' | 'dotnet' | 'compiler' | 'generic';

/** What the first line of an alert says; `finish` may refine it from the lines that follow. */
export interface Head {
  category: string;
  message: string;
  location?: string;
  /** Overrides the rule's severity (e.g. `error TS…` vs `warning TS…`). */
  severity?: AlertSeverity;
  /** Overrides the rule's compile flag. */
  compile?: boolean;
  /** Overrides the rule's block kind; null reads the line alone. */
  block?: BlockKind | null;
}

export interface AlertRule {
  kind: 'alert';
  id: string;
  family: Family;
  severity: AlertSeverity;
  /** Compile errors are cleared by a later build-success line. */
  compile: boolean;
  /**
   * Literals (4 bytes or more) of which every matching line holds at least one in its raw bytes,
   * ANSI codes included. The scanner searches raw output for these first and runs `pattern` only
   * on lines that hold one.
   */
  needs: readonly string[];
  /** Applied to one line with ANSI codes stripped. Must stay translatable to a grep ERE. */
  pattern: RegExp;
  /** Category, message, location from the match; undefined when the line is not this rule's after all. */
  head(match: RegExpExecArray): Head | undefined;
  /** How the lines after the first belong to the alert; absent: the line alone. */
  block?: BlockKind;
  /** Refines the alert from the lines of its block (ANSI stripped, first line excluded). */
  finish?(head: Head, body: readonly string[]): Head;
  /**
   * Lines printed before the first line that belong to it (Node's `file:line` + caret header), given
   * the last few lines before it (ANSI stripped, oldest first).
   */
  lookback?(before: readonly string[]): Lead | undefined;
}

/** Lines before an alert's first line that are part of it, and what they say. */
export interface Lead {
  lines: string[];
  location: string;
  message?: string;
}

export interface SuccessRule {
  kind: 'success';
  id: string;
  family: Family;
  needs: readonly string[];
  pattern: RegExp;
}

export type Rule = AlertRule | SuccessRule;

// --- shared bits -------------------------------------------------------------------------------

const CROSS = '⨯'; // Next.js error mark
const WARN_SIGN = '⚠'; // Next.js warning mark

function at(file: string, line: string | undefined, col?: string): string {
  if (!line) return stripFileUrl(file);
  return col ? `${stripFileUrl(file)}:${line}:${col}` : `${stripFileUrl(file)}:${line}`;
}

function stripFileUrl(path: string): string {
  return path.startsWith('file://') ? path.slice('file://'.length) : path;
}

/** `java.lang.IllegalStateException` → `IllegalStateException`; `A::B` stays whole for Ruby. */
function simpleName(qualified: string): string {
  const dot = qualified.lastIndexOf('.');
  return dot === -1 ? qualified : qualified.slice(dot + 1);
}

// Node system errors the generic family names; `Error: listen EADDRINUSE: …` is filed under the code.
const GENERIC_CODES = /\b(EADDRINUSE|ECONNREFUSED)\b/;

function codeCategory(className: string, message: string): Pick<Head, 'category' | 'severity'> {
  const code = className === 'Error' ? GENERIC_CODES.exec(message)?.[1] : undefined;
  if (code === 'ECONNREFUSED') return {category: code, severity: 'warning'};
  return {category: code ?? className};
}

// esbuild's one-line form, also inside Vite's `Transform failed` report.
const ESBUILD_LOCATED = /^(\S+?):(\d+):(\d+): ERROR: (.*)$/;

// `Name: message` / `Name` as the last line of a Python traceback (or a Java/JS exception line).
const EXCEPTION_LINE = /^([A-Za-z_][\w.]*)(?::\s?(.*))?$/;

function firstContent(body: readonly string[]): string | undefined {
  return body.find((line) => line.trim() !== '')?.trim();
}

// npm lines that say nothing about the failure: blank, the debug-log pointer and its path.
const NPM_NOISE = /^$|^A complete log\b|\.log$/;

// Next's ` ⨯ src/app/page.tsx (5:9) @ Page`
const NEXT_WHERE = /^\s*(?:⨯|- error) (\S+) \((\d+):(\d+)\) @ (.*)$/;

// webpack's header `./src/App.tsx 3:18-33` or `./src/App.tsx:3:8`
const WEBPACK_TARGET = /^(\S+?)(?::(\d+):(\d+)|\s+(\d+):(\d+)(?:-\d+)?)?(?:\s.*)?$/;

function webpackHead(target: string): Head {
  const m = WEBPACK_TARGET.exec(target.trim());
  const location = m && /[\\/.]/.test(m[1]) ? at(m[1], m[2] ?? m[4], m[3] ?? m[5]) : '';
  return {category: 'webpack', message: target.trim(), location};
}

/** The message and error class of a webpack/Next block: its first line of content. */
function webpackFinish(head: Head, body: readonly string[]): Head {
  const lines = body.map((line) => line.trim()).filter((line) => line !== '');
  let location = head.location;
  let index = 0;
  // A bare path line (`./src/App.js`, `./src/app/page.tsx:3:1`) names the file, the next line the error.
  const bare = lines[0] !== undefined ? /^(\.{0,2}\/\S+?)(?::(\d+):(\d+))?$/.exec(lines[0]) : null;
  if (bare) {
    location ||= at(bare[1], bare[2], bare[3]);
    index = 1;
  }
  const message = lines[index];
  if (message === undefined) return {...head, location};
  const ts = /^(?:\[[\w-]+\] )?(?:ERROR|error)?\s*(?:in \S+)?\s*(TS\d+):\s*(.*)$/.exec(message);
  if (ts) return {...head, category: ts[1], message: ts[2], location};
  const notFound = /^(Module not found|Module parse failed|Module build failed)(?: \([^)]*\))?: (.*)$/.exec(message);
  if (notFound) return {...head, category: notFound[1], message: notFound[2].replace(/^Error: /, ''), location};
  const cls = /^([A-Z][\w$]*(?:Error|Exception)): (.*)$/.exec(message);
  if (cls) return {...head, category: cls[1], message: cls[2], location};
  return {...head, message, location};
}

// --- success lines -----------------------------------------------------------------------------

const success = (id: string, family: Family, needs: string[], pattern: RegExp): SuccessRule => ({kind: 'success', id, family, needs, pattern});

const SUCCESS_RULES: SuccessRule[] = [
  success('tsc.clean', 'typescript', ['rror'], /\bFound 0 errors\b/),
  success('webpack.compiled', 'webpack', ['ompiled'], /\b[Cc]ompiled (?:successfully|with \d+ warnings?\b|with warnings|client and server successfully)/),
  success('next.compiled', 'next', ['ompiled', 'eady'], /✓ (?:Compiled|Ready in)\b/),
  success('vite.hmr', 'vite', ['hmr update', 'page reload'], /\b(?:hmr update|page reload) /),
  success('vite.ready', 'vite', ['eady'], /\bready in \d/),
  success('vite.built', 'vite', ['built'], /\bbuilt in \d/),
  success('java.build-success', 'java', ['BUILD'], /\bBUILD SUCCESS(?:FUL)?\b/),
  success('dotnet.build-succeeded', 'dotnet', ['ucceeded'], /\bBuild succeeded\b/),
  success('cargo.finished', 'rust', ['inished'], /^\s*Finished\b.*\btarget\(s\) in /),
  success('esbuild.finished', 'esbuild', ['inished'], /\bbuild finished\b/),
];

// --- alert lines -------------------------------------------------------------------------------

type AlertSpec = Omit<AlertRule, 'kind' | 'severity' | 'compile'> & Partial<Pick<AlertRule, 'severity' | 'compile'>>;

const alert = (spec: AlertSpec): AlertRule => ({kind: 'alert', severity: 'error', compile: false, ...spec});

const ALERT_RULES: AlertRule[] = [
  // Multi-line reports with an unmistakable first line.
  alert({
    id: 'python.traceback',
    family: 'python',
    needs: ['Traceback'],
    pattern: /^Traceback \(most recent call last\):?\s*$/,
    head: () => ({category: 'Traceback', message: ''}),
    block: 'python',
    finish(head, body) {
      const last = body[body.length - 1];
      const m = last !== undefined && !/^\s/.test(last) ? EXCEPTION_LINE.exec(last.trim()) : null;
      if (!m) return head;
      return {...head, category: simpleName(m[1]), message: (m[2] ?? '').trim()};
    },
  }),
  alert({
    id: 'go.panic',
    family: 'go',
    needs: ['panic'],
    pattern: /^panic: (.*?)(?: \[recovered\])?\s*$/,
    head: (m) => ({category: 'panic', message: m[1]}),
    block: 'go',
  }),
  alert({
    id: 'go.fatal-error',
    family: 'go',
    needs: ['rror'],
    pattern: /^fatal error: (.*)$/,
    head: (m) => ({category: 'fatal error', message: m[1]}),
    block: 'go',
  }),
  alert({
    id: 'rust.panic',
    family: 'rust',
    needs: ['panic'],
    pattern: /^thread '([^']*)'(?: \(\d+\))? panicked at (.*)$/,
    head(m) {
      // Rust ≥ 1.73: `panicked at src/main.rs:2:5:` and the message on the next line.
      const current = /^(\S+?):(\d+):(\d+):$/.exec(m[2]);
      if (current) return {category: 'panic', message: '', location: at(current[1], current[2], current[3])};
      const older = /^'(.*)', (\S+?):(\d+):(\d+)$/.exec(m[2]);
      if (older) return {category: 'panic', message: older[1], location: at(older[2], older[3], older[4])};
      return {category: 'panic', message: m[2]};
    },
    block: 'rust-panic',
    finish: (head, body) => (head.message ? head : {...head, message: firstContent(body) ?? ''}),
  }),
  alert({
    id: 'java.exception-in-thread',
    family: 'java',
    needs: ['xception'],
    pattern: /^Exception in thread "([^"]*)" ([\w$.]+)(?:: (.*))?$/,
    head: (m) => ({category: simpleName(m[2]), message: m[3] ?? ''}),
    block: 'frames',
  }),
  alert({
    id: 'node.unhandled-rejection',
    family: 'node',
    needs: ['nhandled'],
    pattern: /^(?:\(node:\d+\) )?\[?UnhandledPromiseRejection(?:Warning)?\b:? ?(.*)$/,
    head: (m) => ({category: 'UnhandledPromiseRejection', message: m[1].replace(/\]? \{$|\]$/, '').trim()}),
    block: 'frames',
    lookback: exceptionHeader,
  }),
  alert({
    id: 'next.error',
    family: 'next',
    needs: [`${CROSS} `, `${CROSS}\x1b`, 'rror'],
    // Next 14 marks errors with `⨯`, Next 13 with `- error`.
    pattern: /^\s*(?:⨯|- error) (.*)$/,
    head(m) {
      const rest = m[1].trim();
      const cls = /^(?:Uncaught )?((?:[A-Z][\w$]*)?(?:Error|Exception))(?: \[[\w.]+\])?: (.*)$/.exec(rest);
      if (cls) return {category: cls[1], message: cls[2], block: 'frames', compile: false};
      // ` ⨯ src/app/page.tsx (5:9) @ Page` only says where the error on the next line happened.
      if (NEXT_WHERE.test(m[0])) return undefined;
      // ` ⨯ ./src/app/page.tsx:3:1` followed by `Module not found: …`
      const path = /^(\.{0,2}\/\S+?)(?::(\d+):(\d+))?$/.exec(rest);
      if (path) return {category: 'Error', message: '', location: at(path[1], path[2], path[3]), block: 'paragraph'};
      return {category: 'Error', message: rest, block: null, compile: /^Failed to compile/.test(rest)};
    },
    compile: true,
    lookback(before) {
      const last = before[before.length - 1];
      const m = last === undefined ? null : NEXT_WHERE.exec(last);
      return m ? {lines: [last], location: at(m[1], m[2], m[3])} : undefined;
    },
    finish: (head, body) => (head.message ? head : webpackFinish(head, body)),
  }),
  alert({
    id: 'dotnet.unhandled-exception',
    family: 'generic',
    needs: ['xception'],
    pattern: /\b[Uu]nhandled [Ee]xception\b[.:]? ?(.*)$/,
    head(m) {
      const cls = /^([\w.]+(?:Exception|Error))(?:: (.*))?$/.exec(m[1].trim());
      if (cls) return {category: simpleName(cls[1]), message: cls[2] ?? ''};
      return {category: 'unhandled exception', message: m[1].trim() || m[0].trim()};
    },
    block: 'frames',
  }),
  alert({
    id: 'ruby.exception',
    family: 'ruby',
    needs: ['.rb:'],
    pattern: /^(\S+\.rb):(\d+):in [`']([^']*)': (.*) \(([A-Z][\w:]*)\)$/,
    head: (m) => ({category: m[5], message: m[4], location: at(m[1], m[2])}),
    block: 'frames',
  }),

  // Compile errors and warnings.
  alert({
    id: 'typescript.pretty',
    family: 'typescript',
    needs: ['rror', 'arning'],
    pattern: /^(\S.*?):(\d+):(\d+) - (error|warning) (TS\d+): (.*)$/,
    head: (m) => ({category: m[5], message: m[6], location: at(m[1], m[2], m[3]), severity: m[4] === 'warning' ? 'warning' : 'error'}),
    compile: true,
    block: 'indented',
  }),
  alert({
    // tsc's classic format and MSBuild's (C#, F#, VB, NuGet): `file(line,col): error CODE: message`.
    id: 'compiler.msbuild',
    family: 'compiler',
    needs: ['rror', 'arning'],
    pattern: /^\s*(\S.*?)\((\d+),(\d+)(?:,\d+,\d+)?\): (error|warning) ([A-Z]+\d+): (.*?)(?: \[[^\]]*\])?$/,
    head: (m) => ({category: m[5], message: m[6], location: at(m[1], m[2], m[3]), severity: m[4] === 'warning' ? 'warning' : 'error'}),
    compile: true,
  }),
  alert({
    id: 'typescript.global',
    family: 'typescript',
    needs: ['rror'],
    pattern: /^error (TS\d+): (.*)$/,
    head: (m) => ({category: m[1], message: m[2]}),
    compile: true,
  }),
  alert({
    id: 'dotnet.code',
    family: 'dotnet',
    needs: ['rror', 'arning'],
    pattern: /\b(error|warning) ((?:CS|ENC|MSB|NU|BC|FS|NETSDK)\d+): (.*?)(?: \[[^\]]*\])?$/,
    head: (m) => ({category: m[2], message: m[3], severity: m[1] === 'warning' ? 'warning' : 'error'}),
    compile: true,
  }),
  alert({
    id: 'rust.error',
    family: 'rust',
    needs: ['rror'],
    pattern: /^error\[(E\d+)\]: (.*)$/,
    head: (m) => ({category: m[1], message: m[2]}),
    compile: true,
    block: 'indented',
  }),
  alert({
    id: 'rust.error-plain',
    family: 'rust',
    needs: ['rror'],
    pattern: /^error: (.*)$/,
    // Cargo's summaries repeat the errors already reported.
    head: (m) => (/^(?:aborting due to|could not compile)\b/.test(m[1]) ? undefined : {category: 'error', message: m[1]}),
    compile: true,
    block: 'indented',
  }),
  alert({
    id: 'rust.warning',
    family: 'rust',
    needs: ['arning'],
    pattern: /^warning(?:\[(\w+)\])?: (.*)$/,
    head: (m) => (/\bgenerated \d+ warnings?\b/.test(m[2]) ? undefined : {category: m[1] ?? 'warning', message: m[2]}),
    severity: 'warning',
    compile: true,
    block: 'indented',
  }),
  alert({
    id: 'go.build-error',
    family: 'go',
    needs: ['.go:'],
    pattern: /^(\.{0,2}\/?[^\s:]+\.go):(\d+):(\d+): (.*)$/,
    head: (m) => ({category: 'compile error', message: m[4], location: at(m[1], m[2], m[3])}),
    compile: true,
  }),
  alert({
    id: 'go.test-fail',
    family: 'go',
    needs: ['FAIL'],
    pattern: /^\s*--- FAIL: (\S+)/,
    head: (m) => ({category: 'FAIL', message: m[1]}),
    block: 'indented',
    // `go test -v` prints a test's log lines before its `--- FAIL:` line.
    lookback(before) {
      let first = before.length;
      while (first > 0 && /^\s+\S/.test(before[first - 1])) first--;
      const lines = before.slice(first);
      for (const line of lines) {
        const m = /^\s+(\S+_test\.go):(\d+): (.*)$/.exec(line);
        if (m) return {lines, location: at(m[1], m[2]), message: m[3]};
      }
      return undefined;
    },
    finish(head, body) {
      // `    main_test.go:12: Add(1, 2) = 4; want 3`
      for (const line of body) {
        const m = /^\s+(\S+\.go):(\d+): (.*)$/.exec(line);
        if (m) return {...head, message: `${head.message}: ${m[3]}`, location: head.location || at(m[1], m[2])};
      }
      return head;
    },
  }),
  alert({
    id: 'go.package-fail',
    family: 'go',
    needs: ['FAIL'],
    pattern: /^FAIL\s+(\S+)(.*)$/,
    head: (m) => ({category: 'FAIL', message: `${m[1]}${m[2]}`.replace(/\s+/g, ' ').trim(), compile: /\[(?:build|setup) failed\]/.test(m[2])}),
  }),
  alert({
    // gcc, clang, javac, swiftc: `file:line[:col]: error: message`.
    id: 'compiler.gcc',
    family: 'compiler',
    needs: ['rror', 'arning'],
    pattern: /^(\S+?):(\d+):(?:(\d+):)? (?:fatal )?(error|warning): (.*)$/,
    head: (m) => ({
      category: m[4] === 'warning' ? 'compile warning' : 'compile error',
      message: m[5],
      location: at(m[1], m[2], m[3]),
      severity: m[4] === 'warning' ? 'warning' : 'error',
    }),
    compile: true,
    block: 'indented',
  }),
  alert({
    id: 'java.maven-compile',
    family: 'java',
    needs: ['ERROR'],
    pattern: /^\[ERROR\] (\S+\.(?:java|kt|scala|groovy)):\[(\d+),(\d+)\] (.*)$/,
    head: (m) => ({category: 'compile error', message: m[4], location: at(m[1], m[2], m[3])}),
    compile: true,
  }),
  alert({
    id: 'esbuild.error',
    family: 'esbuild',
    needs: ['ERROR', 'WARN'],
    pattern: /^\s*(?:✘|▲|X) \[(ERROR|WARNING)\] (.*)$/,
    head: (m) => ({category: 'esbuild', message: m[2], severity: m[1] === 'WARNING' ? 'warning' : 'error'}),
    compile: true,
    block: 'indented',
  }),
  alert({
    id: 'esbuild.located',
    family: 'esbuild',
    needs: ['ERROR'],
    pattern: ESBUILD_LOCATED,
    head: (m) => ({category: 'esbuild', message: m[4], location: at(m[1], m[2], m[3])}),
    compile: true,
  }),
  alert({
    id: 'vite.internal-server-error',
    family: 'vite',
    needs: ['rror'],
    pattern: /\[vite\] (?:\(\w+\) )?Internal server error: (.*)$/,
    head: (m) => ({category: 'Internal server error', message: m[1], location: pathInMessage(m[1])}),
    compile: true,
    block: 'indented',
    finish(head, body) {
      // `Transform failed with 1 error:` is followed by esbuild's `file:line:col: ERROR: message`.
      const esbuild = body[0] !== undefined ? ESBUILD_LOCATED.exec(body[0]) : null;
      if (!esbuild) return head;
      return {...head, message: esbuild[4], location: at(esbuild[1], esbuild[2], esbuild[3])};
    },
  }),
  alert({
    id: 'vite.pre-transform-error',
    family: 'vite',
    needs: ['rror'],
    pattern: /\[vite\] (?:\(\w+\) )?Pre-transform error: (.*)$/,
    head: (m) => ({category: 'Pre-transform error', message: m[1], location: pathInMessage(m[1])}),
    compile: true,
    block: 'indented',
  }),
  alert({
    id: 'vite.plugin-error',
    family: 'vite',
    needs: ['plugin:'],
    pattern: /\[plugin:([^\]\s]+)\] (.*)$/,
    head: (m) => ({category: `plugin:${m[1]}`, message: m[2], location: pathInMessage(m[2])}),
    compile: true,
    block: 'indented',
  }),
  alert({
    id: 'vite.error',
    family: 'vite',
    needs: ['rror'],
    pattern: /\[vite\] (?:\(\w+\) )?(error (?:while|when) .*)$/,
    head: (m) => ({category: 'vite', message: m[1]}),
    block: 'indented',
  }),
  alert({
    id: 'vite.warning',
    family: 'vite',
    needs: ['arning'],
    pattern: /\[vite\] (?:\(\w+\) )?warning: (.*)$/,
    head: (m) => ({category: 'vite warning', message: m[1]}),
    severity: 'warning',
    compile: true,
  }),
  alert({
    id: 'rollup.warning',
    family: 'vite',
    needs: ['(!) '],
    pattern: /^\(!\) (.*)$/,
    head: (m) => ({category: 'rollup warning', message: m[1]}),
    severity: 'warning',
    compile: true,
  }),
  alert({
    id: 'webpack.error',
    family: 'webpack',
    needs: ['ERROR'],
    pattern: /^ERROR in (.*)$/,
    head: (m) => webpackHead(m[1]),
    compile: true,
    block: 'paragraph',
    finish: webpackFinish,
  }),
  alert({
    id: 'webpack.warning',
    family: 'webpack',
    needs: ['WARN'],
    pattern: /^WARNING in (.*)$/,
    head: (m) => ({...webpackHead(m[1]), category: 'webpack warning'}),
    severity: 'warning',
    compile: true,
    block: 'paragraph',
    finish: (head, body) => ({...webpackFinish(head, body), severity: 'warning'}),
  }),
  alert({
    id: 'webpack.failed-to-compile',
    family: 'webpack',
    needs: ['ailed'],
    pattern: /\bFailed to compile\b\.?(.*)$/,
    head: (m) => ({category: 'Failed to compile', message: m[1].trim()}),
    compile: true,
    block: 'lead-paragraph',
    finish: (head, body) => (head.message ? head : {...webpackFinish(head, body), category: head.category}),
  }),
  alert({
    id: 'next.build-error',
    family: 'next',
    needs: ['rror'],
    pattern: /\bBuild error(?: occurred)?\b:? ?(.*)$/,
    head: (m) => ({category: 'Build error', message: m[1].trim()}),
    compile: true,
  }),
  alert({
    id: 'next.warning',
    family: 'next',
    needs: [`${WARN_SIGN} `, `${WARN_SIGN}\x1b`, '- warn'],
    pattern: /^\s*(?:⚠|- warn) (.*)$/,
    head: (m) => ({category: 'warning', message: m[1].trim()}),
    severity: 'warning',
  }),
  alert({
    id: 'go.build-failed',
    family: 'go',
    needs: ['ailed'],
    pattern: /\b[Bb]uild failed\b:? ?(.*)$/,
    head: (m) => ({category: 'build failed', message: m[1].trim() || m[0].trim()}),
    compile: true,
  }),
  alert({
    id: 'java.build-failure',
    family: 'java',
    needs: ['FAIL'],
    pattern: /\bBUILD (FAILURE|FAILED)\b(.*)$/,
    head: (m) => ({category: `BUILD ${m[1]}`, message: m[0].replace(/^\[\w+\]\s*/, '').trim()}),
    compile: true,
  }),
  alert({
    id: 'dotnet.build-failed',
    family: 'dotnet',
    needs: ['FAIL'],
    pattern: /\bBuild FAILED\b/,
    head: () => ({category: 'Build FAILED', message: 'Build FAILED.'}),
    compile: true,
  }),

  // Runtime exceptions by their class line.
  alert({
    // Node/JS (`TypeError: x` + `    at …` frames) and a Python exception line on its own.
    id: 'node.error',
    family: 'node',
    needs: ['rror', 'xception'],
    pattern: /^(?:Uncaught )?((?:[A-Z][\w$]*)?(?:Error|Exception))(?: \[([\w.]+)\])?: (.*)$/,
    head: (m) => ({...codeCategory(m[1], m[3]), message: m[3]}),
    block: 'frames',
    lookback: exceptionHeader,
  }),
  alert({
    id: 'java.caused-by',
    family: 'java',
    needs: ['Caused'],
    pattern: /^Caused by: ([\w$.]+)(?:: (.*))?$/,
    head: (m) => ({category: simpleName(m[1]), message: m[2] ?? ''}),
    block: 'frames',
  }),
  alert({
    id: 'java.exception',
    family: 'java',
    needs: ['xception', 'rror'],
    pattern: /^((?:[a-z_$][\w$]*\.)+[A-Z][\w$]*(?:Exception|Error))(?:: (.*))?$/,
    head: (m) => ({category: simpleName(m[1]), message: m[2] ?? ''}),
    block: 'frames',
  }),
  alert({
    id: 'python.named-error',
    family: 'python',
    needs: ['rror'],
    pattern: /\b(SyntaxError|ModuleNotFoundError|ImportError): (.*)$/,
    head: (m) => ({category: m[1], message: m[2]}),
  }),
  alert({
    // Rails' log form: `NoMethodError (undefined method 'x' for nil):`
    id: 'ruby.error',
    family: 'ruby',
    needs: ['rror', 'xception'],
    pattern: /^((?:[A-Z]\w*::)*[A-Z]\w*(?:Error|Exception)) \((.*)\):?$/,
    head: (m) => ({category: m[1], message: m[2]}),
    block: 'frames',
  }),
  alert({
    id: 'ruby.load-error',
    family: 'ruby',
    needs: ['rror'],
    // Sinatra's and Rack's `NoMethodError - undefined method …` (with a colon, node.error reads it).
    pattern: /^(NoMethodError|LoadError)\b[\s:-]*(.*)$/,
    head: (m) => ({category: m[1], message: m[2].trim()}),
    block: 'frames',
  }),

  // Node's own messages.
  alert({
    id: 'node.npm-error',
    family: 'node',
    needs: ['ERR!', 'rror'],
    pattern: /^npm (?:ERR!|error) ?(.*)$/,
    // npm's closing pointer to its debug log is no error of its own.
    head: (m) => (NPM_NOISE.test(m[1].trim()) ? undefined : {category: 'npm ERR!', message: m[1].trim()}),
    block: 'npm',
    finish(head, body) {
      const lines = [head.message, ...body.map((line) => line.replace(/^npm (?:ERR!|error) ?/, '').trim())].filter(Boolean);
      const code = lines.map((line) => /^code (\S+)$/.exec(line)?.[1]).find(Boolean);
      const message = lines.find((line) => !/^(?:code|errno|syscall|path)\b/.test(line) && !NPM_NOISE.test(line)) ?? head.message;
      return {...head, category: code ? `npm ${code}` : head.category, message};
    },
  }),
  alert({
    id: 'node.nodemon-crashed',
    family: 'node',
    needs: ['crashed'],
    pattern: /\[nodemon\] app crashed\b(.*)$/,
    head: (m) => ({category: 'app crashed', message: m[0].replace(/^.*?\[nodemon\] /, '').trim()}),
  }),
  alert({
    id: 'node.cannot-find-module',
    family: 'node',
    needs: ['Cannot'],
    pattern: /\bCannot find module '([^']+)'/,
    head: (m) => ({category: 'Cannot find module', message: m[0]}),
  }),
  alert({
    id: 'node.warning',
    family: 'node',
    needs: ['arning'],
    pattern: /^\(node:\d+\) (?:\[([\w.]+)\] )?((?:[A-Z]\w*)?Warning): (.*)$/,
    head: (m) => ({category: m[2], message: m[3]}),
    severity: 'warning',
  }),

  // Generic failures any runtime prints.
  alert({
    id: 'generic.eaddrinuse',
    family: 'generic',
    needs: ['EADDR'],
    pattern: /\bEADDRINUSE\b/,
    head: (m) => ({category: 'EADDRINUSE', message: m.input.trim()}),
  }),
  alert({
    id: 'generic.econnrefused',
    family: 'generic',
    needs: ['ECONN'],
    pattern: /\bECONNREFUSED\b/,
    head: (m) => ({category: 'ECONNREFUSED', message: m.input.trim()}),
    severity: 'warning',
  }),
  alert({
    id: 'generic.segfault',
    family: 'generic',
    needs: ['Segmentation'],
    pattern: /\bSegmentation fault\b/,
    head: (m) => ({category: 'Segmentation fault', message: m.input.trim()}),
  }),
  alert({
    id: 'generic.out-of-memory',
    family: 'generic',
    needs: ['memory'],
    pattern: /\b[Oo]ut of memory\b/,
    head: (m) => ({category: 'out of memory', message: m.input.trim()}),
  }),
];

/** `/home/u/src/App.tsx: Unexpected token (5:2)` → `/home/u/src/App.tsx:5:2`. */
function pathInMessage(message: string): string {
  const m = /^(\/\S+?|[A-Za-z]:\\\S+?|\.{1,2}\/\S+?):(?: .*\((\d+):(\d+)\)|(\d+):(\d+))/.exec(message);
  if (!m) return '';
  return at(m[1], m[2] ?? m[4], m[3] ?? m[5]);
}

/** All rules in the order they are tried: success lines first (`Found 0 errors` is no error). */
export const RULES: readonly Rule[] = [...SUCCESS_RULES, ...ALERT_RULES];

/** Every literal the scanner searches raw output for (each rule's `needs`). */
export const FRAGMENTS: readonly string[] = [...new Set(RULES.flatMap((rule) => rule.needs))];

/** Every rule's pattern as a POSIX extended regex, in table order. */
export const GREP_PATTERNS: readonly string[] = RULES.map((rule) => toGrepPattern(rule.pattern.source));

/** The same pattern set as one `grep -E` expression (for the benchmark's peer and for one-off checks). */
export const GREP_PATTERN: string = GREP_PATTERNS.join('|');
