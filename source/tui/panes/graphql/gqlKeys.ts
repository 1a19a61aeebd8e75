import type {Keypress} from '../../key/keyBindings.js';

/**
 * Keys only the GraphQL pane has. Ctrl-R runs from anywhere in the pane: Ctrl-Enter reaches a
 * program as a plain Enter in most terminals and in tmux, so it cannot be the run key. Tab
 * completes in the query box; Shift-Tab (ESC [ Z, which tmux passes through) goes to the other box.
 */
export const GqlKey = {
  RUN: 'ctrl-r',
  RUN_PLAIN: 'r',
  EDIT_QUERY: 'e',
  EDIT_VARIABLES: 'v',
  HISTORY: 'h',
  STOP: 's',
  CONVERSATIONS: 't',
  OPEN_ALL: 'o',
  CLOSE_ALL: 'c',
  TOGGLE: 'space',
} as const;

const plain = (press: Keypress, input: string) => press.name === undefined && !press.ctrl && !press.meta && !press.paste && press.input === input;

export const isRunKey = (press: Keypress) => press.name === undefined && press.ctrl && !press.meta && press.input === 'r';
export const isHistoryOlder = (press: Keypress) => press.name === undefined && press.ctrl && press.input === 'p';
export const isHistoryNewer = (press: Keypress) => press.name === undefined && press.ctrl && press.input === 'n';
export const isCompleteKey = (press: Keypress) => press.name === 'tab' && !press.shift;
export const isOtherBoxKey = (press: Keypress) => press.name === 'tab' && press.shift;

export function isGqlKey(name: Exclude<keyof typeof GqlKey, 'RUN' | 'TOGGLE'>, press: Keypress): boolean {
  return plain(press, GqlKey[name]);
}

export const isToggleKey = (press: Keypress) => plain(press, ' ') || (press.name === 'return' && !press.ctrl && !press.meta);

/** The key lines at the foot of the pane: editing a box, and browsing the result. */
export const EDIT_KEY_LINE = 'ctrl-r run · tab complete · shift-tab query/variables · ctrl-p/ctrl-n history · esc done (then q, tab, ? work again)';
export const BROWSE_KEY_LINE =
  'e edit query · v variables · r run · s stop a subscription · h history · t chat conversations · ↑↓/j k move · enter/space open/close · ←/→ close/open · c/o close/open all';

/** Whether a document's (first) operation is a subscription: those stream, and run until stopped. */
export function isSubscriptionText(query: string): boolean {
  const code = query.replace(/#[^\n]*/g, '');
  return /^\s*subscription\b/.test(code);
}
