/**
 * Where an alert points: its first application frame (via incidents/stack.ts), after dropping
 * frames of runtimes and libraries the shared skip list does not name (Node built-ins, JDK,
 * Go module cache and standard library).
 */
import {firstAppFrame, isSkippedFrame, parseFrame} from '../../incidents/stack.js';

// Java/Kotlin frames name the class, not the path: `at java.base/java.lang.Integer.parseInt(Integer.java:668)`.
const JVM_LIBRARY = /^\s*at\s+(?:[\w.$]+\/)?(?:java|javax|jdk|sun|com\.sun|kotlin|kotlinx|scala|org\.springframework|org\.apache|org\.junit|io\.netty|reactor)\./;
// Node's built-in modules other than node:internal (`at Server.listen (node:net:2067:7)`).
const NODE_BUILTIN = /^\s*at\s(?:.*\()?node:[\w/]+:\d+:\d+\)?\s*$/;
// Go: the module cache holds dependencies, GOROOT the standard library.
const GO_LIBRARY = /[\\/](?:pkg[\\/]mod|go[\\/]src[\\/](?:net|internal|runtime|reflect|sync|syscall|testing|encoding|database|os|io|fmt)[\\/])/;
// .NET: `   at App.Program.Main(String[] args) in /home/u/app/Program.cs:line 12`
const DOTNET_FRAME = /^\s+at\s.* in (.+):line (\d+)\s*$/;
// Rust: ` --> src/main.rs:3:20`; Vite: `  File: /src/App.tsx:5:2`; esbuild: `    src/main.ts:3:8:`
const POINTER = /^\s*(?:-->|File:)\s*(\S+:\d+(?::\d+)?)\s*$|^\s+(\S+:\d+:\d+):\s*$/;
// Node's uncaught-exception header: `/home/u/app/server.js:42` or `file:///app/x.mjs:1`
const NODE_HEADER = /^(\S+?):(\d+)$/;
// Python's header before a SyntaxError: `  File "/app/x.py", line 3`
const PYTHON_FILE = /^\s+File "([^"]+)", line (\d+)/;

/** The first application frame of `lines`, or '' when every frame belongs to a library. */
export function appLocation(lines: readonly string[]): string {
  const kept = lines.filter((line) => !JVM_LIBRARY.test(line) && !NODE_BUILTIN.test(line) && !isGoLibrary(line));
  const frame = firstAppFrame(kept);
  if (frame) return frame;
  for (const line of kept) {
    const dotnet = DOTNET_FRAME.exec(line);
    if (dotnet && !isSkippedFrame(dotnet[1])) return `${dotnet[1]}:${dotnet[2]}`;
  }
  return '';
}

function isGoLibrary(line: string): boolean {
  const frame = parseFrame(line);
  return frame?.format === 'go' && GO_LIBRARY.test(frame.location);
}

/** A `-->` / `File:` / esbuild location line in a diagnostic's block. */
export function pointedLocation(lines: readonly string[]): string {
  for (const line of lines) {
    const m = POINTER.exec(line);
    if (m) return m[1] ?? m[2];
  }
  return '';
}

/**
 * The header a runtime prints above an uncaught exception, given the lines just before the
 * exception line (oldest first): Node's `file:line` / source / caret / blank, or Python's
 * `File "x", line N` / source / caret. Returns the lines that form it and its location.
 */
export function exceptionHeader(before: readonly string[]): {lines: string[]; location: string} | undefined {
  const n = before.length;
  // Node: [file:line, source, caret, blank]
  if (n >= 4 && before[n - 1].trim() === '' && /^\s*\^+\s*$/.test(before[n - 2])) {
    const m = NODE_HEADER.exec(before[n - 4]);
    if (m) {
      const file = m[1].startsWith('file://') ? m[1].slice('file://'.length) : m[1];
      return {lines: before.slice(n - 4), location: isSkippedFrame(file) ? '' : `${file}:${m[2]}`};
    }
  }
  // Python: [File "x", line N, source, caret?]
  for (let back = 1; back <= Math.min(3, n); back++) {
    const m = PYTHON_FILE.exec(before[n - back]);
    if (!m) continue;
    const rest = before.slice(n - back + 1);
    if (rest.every((line) => /^\s/.test(line))) return {lines: before.slice(n - back), location: `${m[1]}:${m[2]}`};
    return undefined;
  }
  return undefined;
}

/** At most this many frames are kept on an alert (the pane shows the first few). */
export const MAX_FRAMES = 30;

/** The stack frame lines of an alert's body, trimmed, in the order printed; library frames included (the pane marks the app's). */
export function stackFrames(lines: readonly string[]): string[] {
  const frames: string[] = [];
  for (const line of lines) {
    if (!parseFrame(line) && !DOTNET_FRAME.test(line)) continue;
    frames.push(line.trim());
    if (frames.length >= MAX_FRAMES) break;
  }
  return frames;
}
