/**
 * The alert scanner's rule table (spec 1, error source `process:<id>`): the line rules of the
 * upstream's families — Node, TypeScript, Vite, webpack, Next.js, Go, Python, Rust, Java, Ruby,
 * .NET, generic — plus build-success lines. The first rule that matches a line wins.
 */
import type {AlertSeverity} from '../../incidents/types.js';
import {ESLINT_PROBLEM, PROGRESS_NOISE, type BlockKind} from './blocks.js';
import {toGrepPattern} from './grep-pattern.js';
import {exceptionHeader} from './locations.js';

export type Family =
  'node' | 'yarn' | 'database' | 'typescript' | 'eslint' | 'vite' | 'esbuild' | 'webpack' | 'next' | 'go' | 'python' | 'rust' | 'java' | 'ruby' | 'dotnet' | 'compiler' | 'generic';

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
  /**
   * A summary of the compile errors above it (`error: aborting due to 2 previous errors`): an alert
   * only when none of those errors was read, so a failed build is never silent and never doubled.
   */
  summary?: boolean;
  /** Refines the alert from the lines of its block (ANSI stripped, first line excluded); undefined: no alert after all. */
  finish?(head: Head, body: readonly string[]): Head | undefined;
  /** A block listing several problems: one alert per problem, each with the lines shown for it. */
  split?(head: Head, lead: readonly string[], body: readonly string[]): Array<{head: Head; lines: string[]}> | undefined;
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
  /** A line that also matches this is no success (`Rebuild finished with 2 errors`). */
  unless?: RegExp;
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
  // Progress noise (`compiling...`) printed between the header and the message is no message.
  const lines = body.map((line) => line.trim()).filter((line) => line !== '' && !PROGRESS_NOISE.test(line));
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

/** The last line of a Python traceback (the exception), when the block reached it. */
function pythonException(body: readonly string[]): {category: string; message: string} | undefined {
  const last = body[body.length - 1];
  const m = last !== undefined && !/^\s/.test(last) ? EXCEPTION_LINE.exec(last.trim()) : null;
  return m ? {category: simpleName(m[1]), message: (m[2] ?? '').trim()} : undefined;
}

/** The function of a traceback's last frame: `  File "x.py", line 9, in main` → `main`. */
function lastPythonFunction(body: readonly string[]): string | undefined {
  for (let i = body.length - 1; i >= 0; i--) {
    const m = /^\s+File "[^"]+", line \d+, in (.+)$/.exec(body[i]);
    if (m) return m[1].trim();
  }
  return undefined;
}

/** A traceback with no exception line (cut off, or the process died while printing it). */
function incompleteTraceback(body: readonly string[]): string {
  const fn = lastPythonFunction(body);
  return fn ? `traceback ended without its exception line (last call in ${fn})` : 'traceback ended without its exception line';
}

// `…/sdk/9.0.100/Sdks/…targets(166,5)`: a diagnostic located in the .NET SDK's own files is about the project.
const DOTNET_SDK_FILE = /[\\/](?:sdk[\\/][\d.]+[^\\/]*|Sdks|MSBuild[\\/]Current[\\/]Bin)[\\/]/i;

// `Error:   Failed to scan for dependencies from entries:`
const VITE_SCAN_HEADING = /^\s*(?:Failed to scan for dependencies from entries|Error during dependency optimization):\s*$/;

// Prisma: the call that failed, and a cause line (column 0, after the call site and snippet).
const PRISMA_CALL = /^Invalid `(prisma\.[\w$.]+\(\))` invocation\b/;
const PRISMA_CAUSE_LINE = /^(?!→|Invalid `|\S+:\d+:\d+\s*$)\S/;

// --- success lines -----------------------------------------------------------------------------

const success = (id: string, family: Family, needs: string[], pattern: RegExp, unless?: RegExp): SuccessRule => ({kind: 'success', id, family, needs, pattern, unless});

// A "finished" line that reports failures is no success.
const REPORTS_FAILURE = /\b(?:[1-9]\d* errors?|errors? (?:found|occurred)|fail(?:ed|ure|s)?)\b/i;

const SUCCESS_RULES: SuccessRule[] = [
  success('tsc.clean', 'typescript', ['rror'], /\bFound 0 errors\b/),
  success('webpack.compiled', 'webpack', ['ompiled'], /\b[Cc]ompiled (?:successfully|with \d+ warnings?\b|with warnings|client and server successfully)/),
  success('next.compiled', 'next', ['ompiled', 'eady'], /✓ (?:Compiled|Ready in)\b/),
  success('vite.hmr', 'vite', ['hmr update', 'page reload'], /\b(?:hmr update|page reload) /),
  success('vite.ready', 'vite', ['eady'], /\bready in \d/),
  success('vite.built', 'vite', ['built'], /\bbuilt in \d/),
  success('java.build-success', 'java', ['BUILD'], /\bBUILD SUCCESS(?:FUL)?\b/),
  success('dotnet.build-succeeded', 'dotnet', ['ucceeded'], /\b[Bb]uild succeeded\b/),
  success('cargo.finished', 'rust', ['inished'], /^\s*Finished\b.*\btarget\(s\) in /),
  // cargo runs (or tests) only what compiled: `     Running \`target/debug/api\``, `     Running unittests src/main.rs (…)`.
  success('cargo.running', 'rust', ['Running'], /^\s+Running (?:`[^`]+`|(?:unittests|tests|benches|examples)\b)/),
  // A build script's step that passed: `running... ok`.
  success('build.running-ok', 'generic', ['... ok'], /\brunning\.\.\. ok\s*$/),
  success('esbuild.finished', 'esbuild', ['inished'], /\bbuild finished\b/),
  // Bun, Rspack, Turbopack, sbt and many build scripts: `Build completed in 412ms`, `Rebuild finished`, `Build OK`.
  success('build.completed-in', 'generic', ['ld completed'], /\b[Bb]uild completed in \d/, REPORTS_FAILURE),
  success('build.rebuild-finished', 'generic', ['inished'], /\b[Rr]ebuild finished\b/, REPORTS_FAILURE),
  success('build.ok', 'generic', ['Build OK'], /\bBuild OK\b/, REPORTS_FAILURE),
  // .NET's terminal logger: `Build succeeded in 3.4s` is read by dotnet.build-succeeded; `Restore complete (0.6s)` is no build.
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
      const exception = pythonException(body);
      return exception ? {...head, ...exception} : {...head, message: incompleteTraceback(body)};
    },
  }),
  alert({
    // Prisma's client error: `prisma:error` / ``Invalid `prisma.user.findUnique()` invocation in``, the call site, a snippet, then the cause.
    id: 'prisma.error',
    family: 'database',
    needs: ['prisma:error', 'Invalid `prisma.'],
    pattern: /^(?:prisma:error\s*|Invalid `(prisma\.[\w$.]+\(\))` invocation\b.*)$/,
    head: (m) => ({category: 'prisma', message: m[1] ?? ''}),
    block: 'prisma',
    finish(head, body) {
      const cause = body[body.length - 1];
      // A banner with no cause after it is not actionable on its own.
      if (cause === undefined || !PRISMA_CAUSE_LINE.test(cause)) return undefined;
      const call = head.message || body.map((line) => PRISMA_CALL.exec(line)?.[1]).find(Boolean);
      const site = body.map((line) => /^(\S+?):(\d+):(\d+)\s*$/.exec(line)).find(Boolean);
      return {...head, message: call ? `${cause.trim()} (${call})` : cause.trim(), location: site ? at(site[1], site[2], site[3]) : ''};
    },
  }),
  alert({
    // Database drivers refusing the credentials: PostgreSQL, MySQL/MariaDB, Prisma's cause line alone.
    id: 'database.auth-failed',
    family: 'database',
    needs: ['uthentication failed', 'Access denied for user'],
    pattern: /(?:password authentication failed for user "[^"]*"|Authentication failed against database server\b|Access denied for user '[^']*'@)/,
    head: (m) => ({category: 'database', message: m.input.trim().replace(/^(?:error|Error|ERROR|FATAL):\s*/, '')}),
    block: 'frames',
  }),
  // Web frameworks log the request before the traceback: Django, Flask, Werkzeug; Python names the thread.
  ...(
    [
      ['django.internal-server-error', ['rror'], /\bInternal Server Error: (\/\S*)\s*$/, (m: RegExpExecArray) => m[1]],
      ['flask.exception-on-request', ['ERROR'], /\bERROR in [\w.]+: Exception on (\S+) \[(\w+)\]\s*$/, (m: RegExpExecArray) => `${m[2]} ${m[1]}`],
      ['werkzeug.error-on-request', ['rror'], /\bError on request:\s*$/, () => ''],
      ['python.exception-in-thread', ['xception'], /^Exception in thread ([^"\s].*?):\s*$/, (m: RegExpExecArray) => `thread ${m[1]}`],
    ] as const
  ).map(([id, needs, pattern, where]) =>
    alert({
      id,
      family: 'python',
      needs,
      pattern,
      head: (m) => ({category: id === 'django.internal-server-error' ? 'Internal Server Error' : 'Exception', message: where(m)}),
      block: 'python-lead',
      finish(head, body) {
        const exception = pythonException(body);
        const on = head.message ? ` (${head.message})` : '';
        if (exception) return {...head, category: exception.category, message: `${exception.message || exception.category}${on}`};
        if (body.length > 0) return {...head, category: 'Traceback', message: `${incompleteTraceback(body)}${on}`};
        return {...head, message: head.message ? `${head.category} on ${head.message}` : `${head.category} (no traceback printed)`};
      },
    }),
  ),
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
    head: (m) => ({category: m[5], message: m[4], location: at(m[1], m[2]), ...(m[5] === 'Errno::ECONNREFUSED' ? {severity: 'warning' as const} : {})}),
    block: 'frames',
  }),
  alert({
    // Ruby's system errors as Rails, Sinatra, Puma and irb print them: `Errno::ENOENT (No such file…):`, `Errno::EADDRINUSE: …`.
    id: 'ruby.errno',
    family: 'ruby',
    needs: ['Errno::'],
    pattern: /^(Errno::E[A-Z0-9]+)(?: \((.*)\):?|:? (?:- )?(.*))?\s*$/,
    head: (m) => ({
      category: m[1],
      message: (m[2] ?? m[3] ?? '').trim(),
      ...(m[1] === 'Errno::ECONNREFUSED' ? {severity: 'warning' as const} : {}),
    }),
    block: 'frames',
    finish(head, body) {
      for (const line of body) {
        const from = /^\s+from (\S+?\.rb):(\d+):in /.exec(line);
        if (from && !/[\\/](?:gems|ruby)[\\/]\d/.test(from[1])) return {...head, location: at(from[1], from[2])};
      }
      return head;
    },
  }),
  alert({
    // java.util.logging (Tomcat, Jetty, GlassFish): `SEVERE: Servlet.service() … threw exception` or `… SEVERE [main] class.method message`.
    id: 'java.severe',
    family: 'java',
    needs: ['SEVERE'],
    pattern: /(?:^|\s)SEVERE(?::| \[[^\]]*\]) (.*)$/,
    head: (m) => ({category: 'SEVERE', message: m[1].replace(/^[\w$.]+\.[\w$<>]+ (?=\S)/, '').trim()}),
    block: 'log-record',
    finish(head, body) {
      const cls = body[0] !== undefined ? /^([\w$.]+(?:Exception|Error))\b(?::\s*(.*))?$/.exec(body[0].trim()) : null;
      return cls ? {...head, category: simpleName(cls[1]), message: cls[2] ? `${head.message}: ${cls[2]}` : head.message} : head;
    },
  }),
  alert({
    // The go command: `go: cannot find main module…`, `go: updates to go.mod needed…`, `go: errors parsing go.mod:`.
    id: 'go.toolchain',
    family: 'go',
    needs: ['go: '],
    pattern: /^go: (.*)$/,
    head(m) {
      // Progress the go command reports while it works is no error.
      if (/^(?:downloading|finding|found|extracting|added|upgraded|downgraded|removed|creating new go\.mod|to add module requirements|switching to)\b/.test(m[1])) return undefined;
      const warning = /^warning: (.*)$/.exec(m[1]);
      return warning ? {category: 'go', message: warning[1], severity: 'warning'} : {category: 'go', message: m[1]};
    },
    compile: true,
    block: 'go-tool',
    finish(head, body) {
      // `go: errors parsing go.mod:` then `/home/u/svc/go.mod:7: unknown directive: requir`
      const located = body[0] !== undefined ? /^(\S+\.(?:mod|work|sum)):(\d+)(?::(\d+))?: (.*)$/.exec(body[0]) : null;
      if (!located) {
        // `updates to go.mod needed; to update it:` then `\tgo mod tidy`: the hint is the action.
        const hints = body.filter((line) => /^\t\S/.test(line)).map((line) => line.trim());
        return head.message.endsWith(':') && hints.length > 0 ? {...head, message: `${head.message} ${hints.join(' ')}`} : head;
      }
      return {...head, message: `${head.message.replace(/:$/, '')}: ${located[4]}`, location: at(located[1], located[2], located[3])};
    },
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
    pattern: /^\s*(\S.*?)\((\d+),(\d+)(?:,\d+,\d+)?\): (error|warning) ([A-Z]+\d+): (.*?)(?: \[([^\]]*)\])?$/,
    head: (m) => ({
      category: m[5],
      message: m[6],
      // NETSDK errors point into the SDK's targets; the project in brackets is what to fix.
      location: m[7] && DOTNET_SDK_FILE.test(m[1]) ? stripFileUrl(m[7]) : at(m[1], m[2], m[3]),
      severity: m[4] === 'warning' ? 'warning' : 'error',
    }),
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
    // ESLint's stylish format: a file's path, then `  3:10  error  message  rule-id` per problem.
    id: 'eslint.stylish',
    family: 'eslint',
    needs: ['rror', 'arning'],
    pattern: ESLINT_PROBLEM,
    head: (m) => eslintHead(m, ''),
    compile: true,
    block: 'eslint',
    lookback(before) {
      const last = before[before.length - 1];
      const path = last === undefined ? null : /^((?:[A-Za-z]:)?[\w./\\@~-]\S*\.\w+)\s*$/.exec(last);
      return path ? {lines: [last], location: path[1]} : undefined;
    },
    split(head, lead, body) {
      const file = lead.length > 1 ? lead[0].trim() : '';
      const problems = [lead[lead.length - 1], ...body];
      return problems.flatMap((line) => {
        const m = ESLINT_PROBLEM.exec(line);
        return m ? [{head: eslintHead(m, file), lines: file ? [file, line] : [line]}] : [];
      });
    },
  }),
  alert({
    // Yarn 1: `error Command failed with exit code 1.`, `error An unexpected error occurred: "…"`.
    id: 'yarn.error',
    family: 'yarn',
    needs: ['rror'],
    pattern: /^(?:yarn )?error ([^\s:[].*)$/,
    // `error ENC0020: …` is a compiler's diagnostic (dotnet.code reads it).
    head: (m) => (/^[A-Z]+\d+: /.test(m[1]) ? undefined : {category: 'yarn error', message: m[1].trim()}),
  }),
  alert({
    id: 'dotnet.code',
    family: 'dotnet',
    needs: ['rror', 'arning'],
    // Restore and SDK errors: `/home/u/Shop/Shop.csproj : error NU1101: …`, `error NETSDK1004: … [/home/u/Shop/Shop.csproj]`.
    // dotnet watch prefixes them with its mark and the project: `dotnet watch ❌ [Shop (net8.0)] error ENC0020: …`.
    pattern: /^\s*(?:dotnet watch \S+\s+(?:\[[^\]]*\]\s+)?(?::\s+)?)?(?:(\S.*?) : )?(error|warning) ((?:CS|ENC|MSB|NU|BC|FS|NETSDK)\d+): (.*?)(?: \[([^\]]*)\])?$/,
    head: (m) => ({
      category: m[3],
      message: m[4],
      location: m[1] && /[\\/.]/.test(m[1]) && !DOTNET_SDK_FILE.test(m[1]) ? m[1] : (m[5] ?? ''),
      severity: m[2] === 'warning' ? 'warning' : 'error',
    }),
    compile: true,
  }),
  alert({
    // dotnet watch cannot hot-reload an edit: `dotnet watch ⌚ Restart is needed to apply the changes.`
    id: 'dotnet.restart-needed',
    family: 'dotnet',
    needs: ['estart is needed'],
    pattern: /\b[Rr]estart is needed\b/,
    head: (m) => ({category: 'dotnet watch', message: m.input.replace(/^\s*dotnet watch \S+\s*(?::\s*)?/, '').trim()}),
  }),
  alert({
    // `dotnet watch 🔨 Failed to restore /home/u/Shop/Shop.csproj`, after the errors it found (if it printed them, they are the alerts).
    id: 'dotnet.failed-to',
    family: 'dotnet',
    needs: ['dotnet watch'],
    pattern: /^\s*dotnet watch \S+\s+(Failed to (restore|build) (\S+).*)$/,
    head: (m) => ({category: m[2] === 'restore' ? 'Restore failed' : 'Build failed', message: m[1].trim(), location: /[\\/.]/.test(m[3]) ? m[3].replace(/[.:]$/, '') : ''}),
    compile: true,
    summary: true,
  }),
  alert({
    // NuGet's summary `Errors in /home/u/Shop/Shop.csproj` with its `    NU1101: …` lines: an alert only when those errors were not read already.
    id: 'dotnet.errors-in',
    family: 'dotnet',
    needs: ['rrors in ', 'rror(s) in '],
    pattern: /^\s*(?:[Ee]rrors|[Ee]rror\(s\)) in (\S+?):?\s*$/,
    head: (m) => ({category: 'Errors in', message: m[0].trim(), location: m[1]}),
    compile: true,
    summary: true,
    block: 'indented',
    finish(head, body) {
      const code = body.map((line) => /^\s+((?:NU|NETSDK|MSB)\d+): (.*)$/.exec(line)).find(Boolean);
      return code ? {...head, category: code[1], message: code[2].trim()} : head;
    },
  }),
  alert({
    // An SDK error printed without `error`: `NETSDK1004: Assets file … not found.`
    id: 'dotnet.netsdk',
    family: 'dotnet',
    needs: ['NETSDK'],
    pattern: /^\s*(NETSDK\d+): (.*?)(?: \[([^\]]*)\])?$/,
    head: (m) => ({category: m[1], message: m[2], location: m[3] ?? ''}),
    compile: true,
  }),
  alert({
    // `MSBuild error MSB3073: The command "npm run build" exited with code 1.`
    id: 'dotnet.msbuild',
    family: 'dotnet',
    needs: ['MSBuild'],
    pattern: /\bMSBuild (error|warning)\b:? ?(?:(MSB\d+): )?(.*)$/,
    head: (m) => ({category: m[2] ?? `MSBuild ${m[1]}`, message: m[3].trim() || m[0].trim(), severity: m[1] === 'warning' ? 'warning' : 'error'}),
    compile: true,
  }),
  alert({
    // A panic's hint outside its report, or a command run with it: worth a look, no failure by itself.
    id: 'rust.backtrace-hint',
    family: 'rust',
    needs: ['RUST_BACKTRACE'],
    pattern: /\bRUST_BACKTRACE\b/,
    head: (m) => ({category: 'RUST_BACKTRACE', message: m.input.trim().replace(/^note: /, '')}),
    severity: 'warning',
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
    // Cargo's summary repeats the errors already reported; rustc's own `aborting due to` is read below.
    head: (m) => (/^(?:aborting\b|could not compile)\b/.test(m[1]) ? undefined : {category: 'error', message: m[1]}),
    compile: true,
    block: 'indented',
  }),
  alert({
    // rustc ends a failed compile with `error: aborting due to 2 previous errors` (run by hand, make, bazel: no cargo summary).
    id: 'rust.aborting',
    family: 'rust',
    needs: ['rror'],
    pattern: /^error: (aborting\b.*)$/,
    head: (m) => ({category: 'aborting', message: m[1].trim()}),
    compile: true,
    summary: true,
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
    // pytest's short test summary: `FAILED tests/test_cart.py::test_total - AssertionError: assert 12.5 == 13.0`.
    id: 'pytest.summary',
    family: 'python',
    needs: ['FAIL', 'ERROR'],
    pattern: /^(FAILED|ERROR) (\S+?\.py)(?:::(\S+))?(?: - (.*))?\s*$/,
    head(m) {
      const reason = m[4]?.trim() ?? '';
      const cls = /^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Failed|Warning))(?::\s*(.*))?$/.exec(reason);
      const test = m[3] ?? (m[1] === 'ERROR' ? 'collecting' : m[2]);
      const category = cls ? simpleName(cls[1]) : m[1];
      const detail = cls ? (cls[2] ?? '') : reason;
      return {category, message: detail ? `${test}: ${detail}` : `${test} ${m[1] === 'ERROR' ? 'errored' : 'failed'}`, location: m[2]};
    },
  }),
  alert({
    // gcc, clang, javac, swiftc: `file:line[:col]: error: message`.
    id: 'compiler.gcc',
    family: 'compiler',
    needs: ['rror', 'arning'],
    // Also rustc's and cargo's short format: `src/main.rs:3:20: error[E0425]: …`.
    pattern: /^(\S+?):(\d+):(?:(\d+):)? (?:fatal )?(error|warning)(?:\[(\w+)\])?: (.*)$/,
    head: (m) => ({
      category: m[5] ?? (m[4] === 'warning' ? 'compile warning' : 'compile error'),
      message: m[6],
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
    // .NET's terminal logger: `Build failed with 1 error(s) in 4.7s`, `Restore failed with 1 error(s) in 1.2s`, `  Shop failed with 2 error(s) (0.8s)`.
    id: 'dotnet.failed-summary',
    family: 'dotnet',
    needs: ['ailed'],
    // `dotnet run`: `The build failed. Fix the build errors and run again.`
    pattern: /^\s*(?:(\S.*?) failed with (\d+) error\(s\)(.*)|The build failed\. Fix the build errors and run again\.)$/,
    head: (m) => ({category: m[1] === 'Restore' ? 'Restore failed' : 'Build failed', message: m[0].trim()}),
    compile: true,
    summary: true,
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
    // Vite's dependency scan heads the esbuild `✘ [ERROR]` reports it prints next: those are the alerts.
    head: (m) => (VITE_SCAN_HEADING.test(m[3]) ? undefined : {...codeCategory(m[1], m[3]), message: m[3]}),
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
    // Exception classes named for their module, not their suffix: `django.core.exceptions.ImproperlyConfigured: …`, `werkzeug.exceptions.NotFound: …`.
    id: 'python.qualified-exception',
    family: 'python',
    needs: ['xception', 'exc.', 'rror'],
    pattern: /^((?:[a-z_]\w*\.)+(?:exceptions?|exc|errors?)\.[A-Z]\w*)(?::\s?(.*))?$/,
    head: (m) => ({category: simpleName(m[1]), message: (m[2] ?? '').trim()}),
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

/** One ESLint stylish problem line: the rule id is the category, the text before it the message. */
function eslintHead(m: RegExpExecArray, file: string): Head {
  // The rule id follows the message after two or more spaces; core rules have none of `/`, `@`.
  const parts = /^(.*?)\s{2,}(@?[\w-]+(?:\/[\w-]+)*)$/.exec(m[4]);
  return {
    category: parts ? parts[2] : 'eslint',
    message: parts ? parts[1] : m[4],
    location: file ? `${file}:${m[1]}:${m[2]}` : '',
    severity: m[3] === 'warning' ? 'warning' : 'error',
  };
}

/** `/home/u/src/App.tsx: Unexpected token (5:2)` → `/home/u/src/App.tsx:5:2`. */
function pathInMessage(message: string): string {
  const m = /^(\/\S+?|[A-Za-z]:\\\S+?|\.{1,2}\/\S+?):(?: .*\((\d+):(\d+)\)|(\d+):(\d+))/.exec(message);
  if (!m) return '';
  return at(m[1], m[2] ?? m[4], m[3] ?? m[5]);
}

// Failures worded like a success line (`[vite] hmr update failed`), tried before the success lines.
const FAILURE_FIRST: AlertRule[] = [
  alert({
    // Vite's `hmr update failed` / `Failed to reload /src/App.tsx. This could be due to syntax errors…`, webpack's `[HMR] Update failed: …`.
    id: 'vite.hmr-failed',
    family: 'vite',
    needs: ['ailed'],
    pattern: /(?:\b[Hh][Mm][Rr]\]? [Uu]pdate failed\b[:.]? ?(.*)|\[vite\] (?:\(\w+\) )?Failed to reload (\S+?)\.? (.*))$/,
    head(m) {
      if (m[2] !== undefined) return {category: 'HMR update failed', message: `Failed to reload ${m[2]}: ${m[3].trim()}`, location: m[2]};
      const rest = m[1].trim();
      return {category: 'HMR update failed', message: rest || 'HMR update failed', location: pathInMessage(rest)};
    },
    compile: true,
  }),
];

/** All rules in the order they are tried: success lines before alerts (`Found 0 errors` is no error). */
export const RULES: readonly Rule[] = [...FAILURE_FIRST, ...SUCCESS_RULES, ...ALERT_RULES];

/** Every literal the scanner searches raw output for (each rule's `needs`). */
export const FRAGMENTS: readonly string[] = [...new Set(RULES.flatMap((rule) => rule.needs))];

/** Every rule's pattern as a POSIX extended regex, in table order. */
export const GREP_PATTERNS: readonly string[] = RULES.map((rule) => toGrepPattern(rule.pattern.source));

/** The same pattern set as one `grep -E` expression (for the benchmark's peer and for one-off checks). */
export const GREP_PATTERN: string = GREP_PATTERNS.join('|');
