/**
 * Stack reduction (spec 1, get_errors rule 2): a stack trace becomes its first application-code
 * frame as `<file>:<line>[:<col>]`, or '' when no frame is from the application.
 */

// Frames from these places are never the application's (spec list, plus Python's own library).
// Vite's own client modules (`/@vite/client`, `/@react-refresh`) are served outside node_modules/.
const SKIPPED = ['node_modules/', 'webpack/', 'node:internal/', '<anonymous>', 'webpack-internal', '/@vite/', '/@react-refresh'];
const PYTHON_LIBRARY = /(^<frozen |[\\/]site-packages[\\/]|[\\/]dist-packages[\\/]|[\\/]lib[\\/]python\d[\d.]*[\\/])/;

// `    at fn (file:line:col)` or `    at file:line:col`; the location is the text in the last parentheses.
const JS_FRAME = /^\s*at\s+(?:.*\((.+)\)|(.+?))\s*$/;
// `\t/path/file.go:42 +0x1d`
const GO_FRAME = /^\s+(\S+\.go:\d+)(?:\s+\+0x[0-9a-f]+)?\s*$/;
// `  File "path", line N, in func`
const PY_FRAME = /^\s*File "([^"]+)", line (\d+)/;

export type StackFormat = 'js' | 'go' | 'python';

export function isSkippedFrame(location: string): boolean {
  for (const marker of SKIPPED) if (location.includes(marker)) return true;
  return isGoRuntimeFrame(location);
}

function isGoRuntimeFrame(location: string): boolean {
  return /\.go:\d+$/.test(location) && /(^|[\\/])runtime[\\/]/.test(location);
}

function cleanPath(location: string): string {
  return location.startsWith('file://') ? location.slice('file://'.length) : location;
}

/** The location of one frame line, or undefined when the line is not a frame. */
export function parseFrame(line: string): {format: StackFormat; location: string} | undefined {
  const py = PY_FRAME.exec(line);
  if (py) return {format: 'python', location: `${py[1]}:${py[2]}`};
  const go = GO_FRAME.exec(line);
  if (go) return {format: 'go', location: go[1]};
  const js = JS_FRAME.exec(line);
  if (js) {
    const inner = (js[1] ?? js[2] ?? '').trim();
    // `at async Promise.all (index 0)` and `at new Foo (<anonymous>)` have no file position.
    if (!/:\d+(:\d+)?$/.test(inner) && !inner.includes('<anonymous>')) return undefined;
    return {format: 'js', location: cleanPath(inner)};
  }
  return undefined;
}

/**
 * First application frame of a stack given as lines (or one string). JS and Go list the innermost
 * frame first; a Python traceback lists it last, so for Python the innermost application frame wins.
 */
export function firstAppFrame(stack: string | string[]): string {
  const lines = typeof stack === 'string' ? stack.split(/\r?\n/) : stack;
  let python = '';
  for (const line of lines) {
    const frame = parseFrame(line);
    if (!frame) continue;
    if (frame.format === 'python') {
      if (!PYTHON_LIBRARY.test(frame.location)) python = frame.location;
      continue;
    }
    if (!isSkippedFrame(frame.location)) return frame.location;
  }
  return python;
}
