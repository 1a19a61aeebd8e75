// ink 6 has no alternate-screen option: these are the xterm sequences every modern terminal knows.
export const ENTER_ALTERNATE_SCREEN = '\u001b[?1049h';
export const LEAVE_ALTERNATE_SCREEN = '\u001b[?1049l';
export const CURSOR_HOME_AND_CLEAR = '\u001b[H\u001b[2J';
export const HIDE_CURSOR = '\u001b[?25l';
export const SHOW_CURSOR = '\u001b[?25h';

export interface FullScreen {
  /** Back to the normal screen with the cursor shown; safe to call more than once. */
  leave(): void;
}

/** Switches the terminal to the alternate screen so quitting gives the shell back untouched. */
export function enterFullScreen(stdout: NodeJS.WriteStream): FullScreen {
  stdout.write(ENTER_ALTERNATE_SCREEN + CURSOR_HOME_AND_CLEAR + HIDE_CURSOR);
  let left = false;
  return {
    leave() {
      if (left) return;
      left = true;
      stdout.write(SHOW_CURSOR + LEAVE_ALTERNATE_SCREEN);
    },
  };
}
