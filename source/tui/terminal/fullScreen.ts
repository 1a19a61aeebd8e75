// ink 6 has no alternate-screen option: these are the xterm sequences every modern terminal knows.
export const ENTER_ALTERNATE_SCREEN = '\u001b[?1049h';
export const LEAVE_ALTERNATE_SCREEN = '\u001b[?1049l';
export const CURSOR_HOME_AND_CLEAR = '\u001b[H\u001b[2J';
export const HIDE_CURSOR = '\u001b[?25l';
export const SHOW_CURSOR = '\u001b[?25h';
// A paste arrives framed (ESC[200~ … ESC[201~), so it types text instead of pressing keys.
export const BRACKETED_PASTE_ON = '\u001b[?2004h';
export const BRACKETED_PASTE_OFF = '\u001b[?2004l';
// Button events with SGR coordinates: the wheel scrolls the pane; off, the terminal selects text.
export const MOUSE_ON = '\u001b[?1000h\u001b[?1006h';
export const MOUSE_OFF = '\u001b[?1000l\u001b[?1006l';

export interface FullScreen {
  /** Back to the normal screen with the cursor shown; safe to call more than once. */
  leave(): void;
  /** Mouse capture on (the wheel scrolls) or off (the terminal selects text, lazygit's toggle). */
  setMouse(on: boolean): void;
}

/** Switches the terminal to the alternate screen so quitting gives the shell back untouched. */
export function enterFullScreen(stdout: NodeJS.WriteStream, options: {mouse?: boolean} = {}): FullScreen {
  let mouse = options.mouse ?? false;
  stdout.write(ENTER_ALTERNATE_SCREEN + CURSOR_HOME_AND_CLEAR + HIDE_CURSOR + BRACKETED_PASTE_ON + (mouse ? MOUSE_ON : ''));
  let left = false;
  return {
    leave() {
      if (left) return;
      left = true;
      stdout.write((mouse ? MOUSE_OFF : '') + BRACKETED_PASTE_OFF + SHOW_CURSOR + LEAVE_ALTERNATE_SCREEN);
    },
    setMouse(on) {
      if (left || on === mouse) return;
      mouse = on;
      stdout.write(on ? MOUSE_ON : MOUSE_OFF);
    },
  };
}
