// What ink 6 writes before every frame of a full-screen app (ansi-escapes' clearTerminal): it
// redraws the whole screen on each render, changed or not, and the clear makes it flicker.
const CLEAR_TERMINAL = '\u001b[2J\u001b[3J\u001b[H';
// Synchronized-output brackets ink writes around a frame: not content.
const BEGIN_SYNC = '\u001b[?2026h';
const END_SYNC = '\u001b[?2026l';
const ERASE_LINE = '\u001b[2K';
const ERASE_BELOW = '\u001b[J';
const moveTo = (row: number) => `\u001b[${row + 1};1H`;

type Write = (chunk: unknown, ...rest: unknown[]) => boolean;

/**
 * The bytes that turn the screen showing `shown` into one showing `lines`: each line that differs
 * is rewritten where it is (ink ends every line with its styles reset, so a line stands alone),
 * and rows below a shorter frame are erased. Empty when nothing differs; `shown` undefined: the
 * whole frame.
 */
export function frameUpdate(shown: readonly string[] | undefined, lines: readonly string[]): string {
  // Unknown screen: every line, each erased as it is written (no clear first: it would flicker).
  if (!shown) return moveTo(0) + ERASE_LINE + lines.join(`\n${ERASE_LINE}`) + ERASE_BELOW;
  let update = '';
  for (let row = 0; row < lines.length; row++) if (lines[row] !== shown[row]) update += moveTo(row) + ERASE_LINE + lines[row];
  if (lines.length < shown.length) update += moveTo(lines.length) + ERASE_BELOW;
  return update;
}

/**
 * Makes ink's full-screen frames cheap: only the lines that changed since the frame on screen are
 * written, in place, instead of clearing the screen and writing it whole; a frame equal to the one
 * on screen writes nothing at all, not even its synchronized-output brackets (a quiet TUI writes
 * nothing). Returns the undo.
 */
export function dedupeFrames(stdout: NodeJS.WriteStream): () => void {
  const original = stdout.write as Write;
  let onScreen: string[] | undefined;
  // A begin-sync bracket waits for the frame after it: dropped with it when the frame is.
  let heldSync = false;
  const pass = (target: NodeJS.WriteStream, chunk: unknown, rest: unknown[]) => {
    if (heldSync) {
      heldSync = false;
      original.call(target, BEGIN_SYNC);
    }
    return original.call(target, chunk, ...rest);
  };
  const write = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
    const callback = rest.find((argument) => typeof argument === 'function') as (() => void) | undefined;
    const skip = () => {
      callback?.();
      return true;
    };
    if (chunk === BEGIN_SYNC) {
      heldSync = true;
      return skip();
    }
    if (chunk === END_SYNC && heldSync) {
      // Nothing was drawn inside the brackets.
      heldSync = false;
      return skip();
    }
    if (typeof chunk === 'string' && chunk.startsWith(CLEAR_TERMINAL)) {
      const lines = chunk.slice(CLEAR_TERMINAL.length).split('\n');
      const update = frameUpdate(onScreen, lines);
      onScreen = lines;
      if (update === '') return skip();
      return pass(this, update, rest);
    }
    // An operating-system command or a device control string (OSC 52: the clipboard) draws nothing.
    const invisible = typeof chunk === 'string' && (chunk.startsWith('\u001b]') || chunk.startsWith('\u001bP'));
    // Anything else drawn (a resize, a message) changed the screen: the next frame is written whole.
    if (chunk !== END_SYNC && !invisible) onScreen = undefined;
    return pass(this, chunk, rest);
  };
  stdout.write = write as typeof stdout.write;
  return () => {
    if (stdout.write === (write as typeof stdout.write)) stdout.write = original as typeof stdout.write;
  };
}
