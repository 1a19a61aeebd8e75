import {CURSOR_HOME_AND_CLEAR, ENTER_ALTERNATE_SCREEN, HIDE_CURSOR, LEAVE_ALTERNATE_SCREEN, SHOW_CURSOR} from './fullScreen.js';

/** The parts of the terminal streams the hand-off touches (process.stdin/stdout, or a test's). */
export interface HandOffStreams {
  stdin: {isTTY?: boolean; isRaw?: boolean; setRawMode?: (mode: boolean) => unknown};
  stdout: {isTTY?: boolean; write(text: string): unknown};
}

/**
 * Gives the terminal to another full-screen program (an editor) while `run` runs, synchronously:
 * the normal screen back, the cursor shown, raw mode off; afterwards the alternate screen,
 * cleared, and raw mode as it was. The caller redraws (ink rewrites its whole frame on the next
 * change). Nothing is written to a stream that is not a terminal.
 */
export function handTerminalOver<T>({stdin, stdout}: HandOffStreams, run: () => T): T {
  const wasRaw = stdin.isTTY === true && stdin.isRaw === true;
  if (stdout.isTTY) stdout.write(SHOW_CURSOR + LEAVE_ALTERNATE_SCREEN);
  if (wasRaw) stdin.setRawMode?.(false);
  try {
    return run();
  } finally {
    if (wasRaw) stdin.setRawMode?.(true);
    if (stdout.isTTY) stdout.write(ENTER_ALTERNATE_SCREEN + CURSOR_HOME_AND_CLEAR + HIDE_CURSOR);
  }
}
