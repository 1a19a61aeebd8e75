/**
 * The frames of a browser stack that name a position in a script, in the two shapes browsers
 * print: V8 (`    at fn (url:line:col)`, `    at url:line:col`) and Firefox/Safari
 * (`fn@url:line:col`). Other lines (the message, eval frames, `at Array.map (<anonymous>)`) are
 * not frames here and pass through untouched.
 */
export interface StackFrame {
  url: string;
  /** 1-based, as browsers print it. */
  line: number;
  /** 1-based, as browsers print it. */
  column: number;
  /** The same line with another location in place of `url:line:col`. */
  withLocation(location: string): string;
}

// The location has no spaces, so eval frames (`eval at f (url:1:2), <anonymous>:3:4`) never match.
const V8_FRAME = /^(\s*at\s+(?:.+\s\()?)(\S+):(\d+):(\d+)(\)?\s*)$/;
// The name may hold spaces (Safari's `global code`) and `/<` (Firefox's anonymous closures).
const AT_SIGN_FRAME = /^(\s*[^@]*@)(\S+):(\d+):(\d+)(\s*)$/;

export function parseStackFrame(line: string): StackFrame | undefined {
  const match = V8_FRAME.exec(line) ?? AT_SIGN_FRAME.exec(line);
  if (!match) return undefined;
  const [, before, url, lineText, columnText, after] = match;
  const frameLine = Number(lineText);
  const column = Number(columnText);
  if (!Number.isSafeInteger(frameLine) || !Number.isSafeInteger(column) || frameLine < 1 || column < 1) return undefined;
  return {url, line: frameLine, column, withLocation: (location) => `${before}${location}${after}`};
}
