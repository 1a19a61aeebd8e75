// What ink 6 writes before every frame of a full-screen app (ansi-escapes' clearTerminal): it
// redraws the whole screen on each render, changed or not, and the clear makes it flicker.
const CLEAR_TERMINAL = '\u001b[2J\u001b[3J\u001b[H';
// Synchronized-output brackets ink writes around a frame: not content.
const SYNC_MARKS = new Set(['\u001b[?2026h', '\u001b[?2026l']);
const HOME = '\u001b[H';
const ERASE_LINE = '\u001b[2K';
const ERASE_BELOW = '\u001b[J';

/**
 * Makes ink's full-screen frames cheap: a frame equal to the one on screen is not written at all
 * (a quiet TUI writes nothing), and a changed one is drawn over the old from the top, each line
 * erased as it is written, instead of clearing the screen first. Returns the undo.
 */
export function dedupeFrames(stdout: NodeJS.WriteStream): () => void {
  const original = stdout.write;
  let onScreen: string | undefined;
  const write = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
    if (typeof chunk === 'string' && chunk.startsWith(CLEAR_TERMINAL)) {
      if (chunk === onScreen) {
        const callback = rest.find((argument) => typeof argument === 'function') as (() => void) | undefined;
        callback?.();
        return true;
      }
      onScreen = chunk;
      const frame = chunk.slice(CLEAR_TERMINAL.length);
      chunk = HOME + ERASE_LINE + frame.replace(/\n/g, `\n${ERASE_LINE}`) + ERASE_BELOW;
    } else if (!(typeof chunk === 'string' && SYNC_MARKS.has(chunk))) {
      // Anything else drawn (a resize, a message) changed the screen: the next frame is written whole.
      onScreen = undefined;
    }
    return (original as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  };
  stdout.write = write as typeof stdout.write;
  return () => {
    if (stdout.write === (write as typeof stdout.write)) stdout.write = original;
  };
}
