import type {Keypress} from '../../key/keyBindings.js';

/** Keys only the Proxy pane has; the help overlay and the status bar list them by label. */
export const ProxyKey = {
  STATUS_CLASS: 'f',
  ENTRY_TYPE: 't',
  PAGES: 'p',
  EXEC: 'e',
  PREV_PROXY: '[',
  NEXT_PROXY: ']',
} as const;

export type ProxyKeyName = keyof typeof ProxyKey;

export function isProxyKey(name: ProxyKeyName, press: Keypress): boolean {
  return press.name === undefined && !press.ctrl && !press.meta && !press.paste && press.input === ProxyKey[name];
}
