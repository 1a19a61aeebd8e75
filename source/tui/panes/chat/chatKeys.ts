import type {Keypress} from '../../key/keyBindings.js';

/**
 * Keys only the Chat pane has. While the input box has focus every key types (q, digits and ?
 * too); Esc leaves the box for the conversation, where these keys and the TUI's own work.
 */
export const ChatKey = {
  TYPE: 'i',
  COPY: 'y',
  ACP: 'a',
  MODEL: 'm',
  DATABASE: 'd',
  TOP: 'g',
  BOTTOM: 'G',
} as const;

const plain = (press: Keypress, input: string) => press.name === undefined && !press.ctrl && !press.meta && !press.paste && press.input === input;

export function isChatKey(name: keyof typeof ChatKey, press: Keypress): boolean {
  return plain(press, ChatKey[name]);
}

export const isSendKey = (press: Keypress) => press.name === 'return' && !press.ctrl && !press.meta && !press.shift;
export const isCancelKey = (press: Keypress) => press.name === 'escape' || (press.name === undefined && press.ctrl && press.input === 'c');
export const isExpandKey = (press: Keypress) => (press.name === 'return' || press.name === 'right') && !press.ctrl && !press.meta;
export const isCollapseKey = (press: Keypress) => press.name === 'left' && !press.ctrl && !press.meta;

/** Answers of the inline permission prompt. */
export function permissionAnswerOf(press: Keypress): 'allow' | 'always' | 'deny' | undefined {
  if (plain(press, 'y')) return 'allow';
  if (plain(press, 'a')) return 'always';
  if (plain(press, 'n') || press.name === 'escape') return 'deny';
  return undefined;
}

/** The key lines at the foot of the pane: typing, and reading the conversation. */
export const TYPE_KEY_LINE = 'enter send · ↑↓ history · esc conversation (then y copy, a ACP, q, tab, ? work) · esc/ctrl-c cancels a running turn';
export const BROWSE_KEY_LINE = 'i type · ↑↓ select · enter/→ open ←close · pgup/pgdn g/G scroll · y copy answer · a ACP agent · m model · d database · M mouse (select text)';
