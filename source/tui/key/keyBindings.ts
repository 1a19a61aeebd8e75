import type {Key} from 'ink';

/** Everything a key can do in the TUI; panes and overlays match commands, never raw keys. */
export enum Command {
  QUIT = 'quit',
  FORCE_QUIT = 'forceQuit',
  HELP = 'help',
  NEXT_PANE = 'nextPane',
  PREV_PANE = 'prevPane',
  FOCUS_PANE_N = 'focusPaneN',
  UP = 'up',
  DOWN = 'down',
  PAGE_UP = 'pageUp',
  PAGE_DOWN = 'pageDown',
  FILTER = 'filter',
  EXPAND = 'expand',
  BACK = 'back',
  START = 'start',
  STOP = 'stop',
  RESTART = 'restart',
}

/** One key as the app sees it: the printable text, or the name of a special key. */
export interface Keypress {
  input: string;
  name?: 'up' | 'down' | 'left' | 'right' | 'pageup' | 'pagedown' | 'home' | 'end' | 'return' | 'escape' | 'tab' | 'backspace' | 'delete';
  ctrl: boolean;
  shift: boolean;
  meta: boolean;
}

/** A key sequence bound to a command; `input` matches printable text, `name` a special key. */
export interface KeyBinding {
  input?: string;
  name?: Keypress['name'];
  ctrl?: boolean;
  shift?: boolean;
  /** Shown in the help overlay and the status bar. */
  label: string;
}

export type KeyBindingMap = Record<Command, KeyBinding[]>;

export const defaultKeyBindings: KeyBindingMap = {
  [Command.QUIT]: [{input: 'q', label: 'q'}],
  [Command.FORCE_QUIT]: [{input: 'c', ctrl: true, label: 'ctrl-c'}],
  [Command.HELP]: [{input: '?', label: '?'}],
  [Command.NEXT_PANE]: [{name: 'tab', shift: false, label: 'tab'}],
  [Command.PREV_PANE]: [{name: 'tab', shift: true, label: 'shift-tab'}],
  // Digits are matched by focusPaneNumber(); the binding only labels them.
  [Command.FOCUS_PANE_N]: [{label: '1-9'}],
  [Command.UP]: [
    {name: 'up', label: '↑'},
    {input: 'k', label: 'k'},
  ],
  [Command.DOWN]: [
    {name: 'down', label: '↓'},
    {input: 'j', label: 'j'},
  ],
  [Command.PAGE_UP]: [{name: 'pageup', label: 'pgup'}],
  [Command.PAGE_DOWN]: [{name: 'pagedown', label: 'pgdn'}],
  [Command.FILTER]: [{input: '/', label: '/'}],
  [Command.EXPAND]: [{name: 'return', label: 'enter'}],
  [Command.BACK]: [{name: 'escape', label: 'esc'}],
  [Command.START]: [{input: 's', label: 's'}],
  [Command.STOP]: [{input: 'x', label: 'x'}],
  [Command.RESTART]: [{input: 'r', label: 'r'}],
};

/** Turns ink's (input, key) pair into one Keypress. */
export function toKeypress(input: string, key: Key): Keypress {
  const name: Keypress['name'] = key.upArrow
    ? 'up'
    : key.downArrow
      ? 'down'
      : key.leftArrow
        ? 'left'
        : key.rightArrow
          ? 'right'
          : key.pageUp
            ? 'pageup'
            : key.pageDown
              ? 'pagedown'
              : key.home
                ? 'home'
                : key.end
                  ? 'end'
                  : key.return
                    ? 'return'
                    : key.escape
                      ? 'escape'
                      : key.tab
                        ? 'tab'
                        : key.backspace
                          ? 'backspace'
                          : key.delete
                            ? 'delete'
                            : undefined;
  return {input: name ? '' : input, name, ctrl: key.ctrl, shift: key.shift, meta: key.meta && !key.escape};
}

function bindingMatches(binding: KeyBinding, press: Keypress): boolean {
  if (binding.name !== undefined) {
    if (press.name !== binding.name) return false;
    if (binding.shift !== undefined && binding.shift !== press.shift) return false;
    return Boolean(binding.ctrl) === press.ctrl;
  }
  if (binding.input === undefined || press.name !== undefined) return false;
  if (Boolean(binding.ctrl) !== press.ctrl) return false;
  return press.input === binding.input && !press.meta;
}

export function matchesCommand(command: Command, press: Keypress, bindings: KeyBindingMap = defaultKeyBindings): boolean {
  return bindings[command].some((binding) => bindingMatches(binding, press));
}

/** The pane number 1-9 a digit key asks for, or undefined. */
export function focusPaneNumber(press: Keypress): number | undefined {
  if (press.ctrl || press.meta || press.name !== undefined) return undefined;
  return /^[1-9]$/.test(press.input) ? Number(press.input) : undefined;
}

/** Labels of a command's keys, e.g. `↑/k`. */
export function keyLabel(command: Command, bindings: KeyBindingMap = defaultKeyBindings): string {
  return bindings[command].map((binding) => binding.label).join('/');
}

/** Printable text a key types into an input field, or '' for special keys. */
export function typedText(press: Keypress): string {
  if (press.name !== undefined || press.ctrl || press.meta) return '';
  // Drop control characters a paste may carry.
  return press.input.replace(/[\u0000-\u001f\u007f]/g, '');
}
