/**
 * Everything a key can do in the TUI, namespaced by where it applies; panes and overlays match
 * commands, never raw keys. Help, key lines and the status bar are generated from the bindings.
 */
export enum Command {
  QUIT = 'global.quit',
  FORCE_QUIT = 'global.forceQuit',
  HELP = 'global.help',
  NEXT_PANE = 'global.nextPane',
  PREV_PANE = 'global.prevPane',
  FOCUS_PANE_N = 'global.focusPaneN',
  ZOOM = 'global.zoom',
  MOUSE = 'global.mouse',
  DASHBOARD = 'global.dashboard',
  UP = 'list.up',
  DOWN = 'list.down',
  PAGE_UP = 'list.pageUp',
  PAGE_DOWN = 'list.pageDown',
  HOME = 'list.home',
  END = 'list.end',
  FILTER = 'list.filter',
  EXPAND = 'list.expand',
  BACK = 'list.back',
  START = 'process.start',
  STOP = 'process.stop',
  RESTART = 'process.restart',
  OUTPUT_FOCUS = 'output.focus',
  OUTPUT_TOP = 'output.top',
  OUTPUT_BOTTOM = 'output.bottom',
  OUTPUT_WRAP = 'output.wrap',
  OUTPUT_SEARCH = 'output.search',
  OUTPUT_NEXT_MATCH = 'output.nextMatch',
  OUTPUT_PREV_MATCH = 'output.prevMatch',
}

/** One key as the app sees it: the printable text, or the name of a special key. */
export interface Keypress {
  input: string;
  name?: 'up' | 'down' | 'left' | 'right' | 'pageup' | 'pagedown' | 'home' | 'end' | 'return' | 'escape' | 'tab' | 'backspace' | 'delete';
  ctrl: boolean;
  shift: boolean;
  meta: boolean;
  /** A bracketed paste: `input` holds the whole pasted text. */
  paste?: boolean;
  /** An arrow made from a mouse-wheel notch. */
  wheel?: boolean;
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

/** A command's keys and what it does, side by side. */
export interface CommandBinding {
  description: string;
  keys: KeyBinding[];
}

export type KeyBindingMap = Record<Command, CommandBinding>;

export const defaultKeyBindings: KeyBindingMap = {
  [Command.QUIT]: {description: 'quit (processes keep running in the daemon)', keys: [{input: 'q', label: 'q'}]},
  [Command.FORCE_QUIT]: {description: 'quit', keys: [{input: 'c', ctrl: true, label: 'ctrl-c'}]},
  [Command.HELP]: {description: 'this help', keys: [{input: '?', label: '?'}]},
  [Command.NEXT_PANE]: {description: 'next pane', keys: [{name: 'tab', shift: false, label: 'tab'}]},
  [Command.PREV_PANE]: {description: 'previous pane', keys: [{name: 'tab', shift: true, label: 'shift-tab'}]},
  // Digits are matched by focusPaneNumber(); the binding only labels them.
  [Command.FOCUS_PANE_N]: {description: 'go to pane N', keys: [{label: '1-9'}]},
  // `+` zooms everywhere; `z` only where the pane has no `z` of its own (Feeds: snooze).
  [Command.ZOOM]: {
    description: 'zoom the pane to full screen and back (z too where the pane has no z of its own)',
    keys: [
      {input: '+', label: '+'},
      {input: 'z', label: 'z'},
    ],
  },
  [Command.MOUSE]: {description: 'mouse capture on/off (off: select text with the mouse)', keys: [{input: 'M', label: 'M'}]},
  [Command.DASHBOARD]: {description: 'live charts of the servers and processes (workbench dashboard); q comes back here', keys: [{input: 'D', label: 'D'}]},
  [Command.UP]: {
    description: 'up',
    keys: [
      {name: 'up', label: '↑'},
      {input: 'k', label: 'k'},
    ],
  },
  [Command.DOWN]: {
    description: 'down',
    keys: [
      {name: 'down', label: '↓'},
      {input: 'j', label: 'j'},
    ],
  },
  [Command.PAGE_UP]: {description: 'page up', keys: [{name: 'pageup', label: 'pgup'}]},
  [Command.PAGE_DOWN]: {description: 'page down', keys: [{name: 'pagedown', label: 'pgdn'}]},
  [Command.HOME]: {description: 'first', keys: [{name: 'home', label: 'home'}]},
  [Command.END]: {description: 'last', keys: [{name: 'end', label: 'end'}]},
  [Command.FILTER]: {description: 'filter', keys: [{input: '/', label: '/'}]},
  [Command.EXPAND]: {description: 'open', keys: [{name: 'return', label: 'enter'}]},
  [Command.BACK]: {description: 'back', keys: [{name: 'escape', label: 'esc'}]},
  [Command.START]: {description: 'start a script (pick from a list)', keys: [{input: 's', label: 's'}]},
  [Command.STOP]: {description: 'stop the selected process', keys: [{input: 'x', label: 'x'}]},
  [Command.RESTART]: {description: 'restart the selected process', keys: [{input: 'r', label: 'r'}]},
  [Command.OUTPUT_FOCUS]: {description: 'read the output: scroll, search, wrap', keys: [{name: 'return', label: 'enter'}]},
  [Command.OUTPUT_TOP]: {
    description: 'oldest output (stops following)',
    keys: [
      {input: 'g', label: 'g'},
      {name: 'home', label: 'home'},
    ],
  },
  [Command.OUTPUT_BOTTOM]: {
    description: 'newest output, follow it',
    keys: [
      {input: 'G', label: 'G'},
      {name: 'end', label: 'end'},
    ],
  },
  [Command.OUTPUT_WRAP]: {description: 'wrap long lines on/off', keys: [{input: 'w', label: 'w'}]},
  [Command.OUTPUT_SEARCH]: {description: 'search the output', keys: [{input: '/', label: '/'}]},
  [Command.OUTPUT_NEXT_MATCH]: {description: 'next match (older)', keys: [{input: 'n', label: 'n'}]},
  [Command.OUTPUT_PREV_MATCH]: {description: 'previous match (newer)', keys: [{input: 'N', label: 'N'}]},
};

/** What a command does, as the bindings describe it. */
export function commandDescription(command: Command, bindings: KeyBindingMap = defaultKeyBindings): string {
  return bindings[command].description;
}

function bindingMatches(binding: KeyBinding, press: Keypress): boolean {
  if (binding.name !== undefined) {
    if (press.name !== binding.name) return false;
    if (binding.shift !== undefined && binding.shift !== press.shift) return false;
    return Boolean(binding.ctrl) === press.ctrl;
  }
  if (binding.input === undefined || press.name !== undefined || press.paste) return false;
  if (Boolean(binding.ctrl) !== press.ctrl) return false;
  return press.input === binding.input && !press.meta;
}

export function matchesCommand(command: Command, press: Keypress, bindings: KeyBindingMap = defaultKeyBindings): boolean {
  return bindings[command].keys.some((binding) => bindingMatches(binding, press));
}

/** How far a list or a scrolled view moves for a key: ±1 for ↑/↓, ±10 for PgUp/PgDn, 0 for any other key. */
export function moveStep(press: Keypress, bindings: KeyBindingMap = defaultKeyBindings): number {
  if (matchesCommand(Command.UP, press, bindings)) return -1;
  if (matchesCommand(Command.DOWN, press, bindings)) return 1;
  if (matchesCommand(Command.PAGE_UP, press, bindings)) return -10;
  if (matchesCommand(Command.PAGE_DOWN, press, bindings)) return 10;
  return 0;
}

/** The pane number 1-9 a digit key asks for, or undefined. */
export function focusPaneNumber(press: Keypress): number | undefined {
  if (press.ctrl || press.meta || press.paste || press.name !== undefined) return undefined;
  return /^[1-9]$/.test(press.input) ? Number(press.input) : undefined;
}

/** Labels of a command's keys, e.g. `↑/k`. */
export function keyLabel(command: Command, bindings: KeyBindingMap = defaultKeyBindings): string {
  return bindings[command].keys.map((binding) => binding.label).join('/');
}

/** Printable text a key types into an input field, or '' for special keys. */
export function typedText(press: Keypress): string {
  if (press.name !== undefined || press.ctrl || press.meta) return '';
  // A one-line field: a pasted line break becomes a space; other control characters go.
  return press.input.replace(/\r\n|[\r\n\t]/g, ' ').replace(/[\u0000-\u001f\u007f]/g, '');
}
