import type {Keypress} from './keyBindings.js';

const ESC = '\u001b';
const PASTE_START = `${ESC}[200~`;
const PASTE_END = `${ESC}[201~`;
/** Lines a wheel notch scrolls, as terminals that turn a notch into arrows do. */
export const WHEEL_STEP = 3;

const key = (fields: Partial<Keypress>): Keypress => ({input: '', ctrl: false, shift: false, meta: false, ...fields});

// CSI/SS3 final byte → key name (xterm, VT220, rxvt).
const FINAL_NAMES: Record<string, Keypress['name']> = {A: 'up', B: 'down', C: 'right', D: 'left', H: 'home', F: 'end'};
const TILDE_NAMES: Record<string, Keypress['name']> = {'1': 'home', '7': 'home', '4': 'end', '8': 'end', '3': 'delete', '5': 'pageup', '6': 'pagedown'};

/** One key from a single character of a text run (raw mode: Enter is \r, Backspace \x7f). */
function charKey(char: string): Keypress | undefined {
  if (char === '\r' || char === '\n') return key({name: 'return'});
  if (char === '\t') return key({name: 'tab'});
  if (char === '\u007f' || char === '\b') return key({name: 'backspace'});
  if (char === ESC) return key({name: 'escape'});
  const code = char.codePointAt(0)!;
  // Ctrl+letter: 0x01 (a) .. 0x1a (z).
  if (code >= 1 && code <= 26) return key({input: String.fromCharCode(code + 96), ctrl: true});
  if (code < 32) return undefined;
  return key({input: char, shift: /^[A-Z]$/.test(char)});
}

/** xterm modifier parameter: 1 + (shift 1 | alt 2 | ctrl 4). */
function modifiers(parameter: string | undefined): Pick<Keypress, 'shift' | 'meta' | 'ctrl'> {
  const value = Math.max(0, Number(parameter ?? '1') - 1);
  return {shift: (value & 1) !== 0, meta: (value & 2) !== 0, ctrl: (value & 4) !== 0};
}

/** The keys of one escape sequence as ink's reader separates them; unknown sequences give none. */
function sequenceKeys(sequence: string): Keypress[] {
  if (sequence === ESC) return [key({name: 'escape'})];
  // SGR mouse report: only the wheel means something here (64 up, 65 down); clicks are ignored.
  const mouse = /^\u001b\[<(\d+);\d+;\d+[Mm]$/.exec(sequence);
  if (mouse) {
    const button = Number(mouse[1]) & ~(4 | 8 | 16);
    if (button === 64 || button === 65) return Array.from({length: WHEEL_STEP}, () => key({name: button === 64 ? 'up' : 'down', wheel: true}));
    return [];
  }
  if (sequence === `${ESC}[Z`) return [key({name: 'tab', shift: true})];
  const csi = /^\u001b(\u001b?)\[(?:(\d+)(?:;(\d+))?)?([A-Za-z~])$/.exec(sequence);
  if (csi) {
    const [, doubled, first, second, final] = csi;
    const name = final === '~' ? TILDE_NAMES[first ?? ''] : FINAL_NAMES[final!];
    if (!name) return [];
    const mods = modifiers(final === '~' ? second : (second ?? (first === '1' ? undefined : first)));
    return [key({name, ...mods, meta: mods.meta || doubled === ESC})];
  }
  const ss3 = /^\u001b(\u001b?)O([A-Za-z])$/.exec(sequence);
  if (ss3) {
    const name = FINAL_NAMES[ss3[2]!];
    return name ? [key({name, meta: ss3[1] === ESC})] : [];
  }
  // Alt+key: ESC then one character.
  if (sequence.startsWith(ESC) && [...sequence].length === 2) {
    const inner = charKey(sequence.slice(1));
    return inner ? [{...inner, meta: true}] : [];
  }
  return [];
}

/**
 * Turns what the terminal sent into keys, in order. Ink's reader already cuts a read at escape
 * sequences but hands a run of text (`jjj`, `2?`, a paste) over as one string: here every
 * character of it is a key of its own. A bracketed paste (ESC[200~ … ESC[201~) is one key with
 * `paste` set, so a pasted `q` types a q instead of quitting.
 */
export class KeySplitter {
  private paste: string | undefined;

  /** `event` is one of ink's input events: an escape sequence or a run of text. */
  push(event: string): Keypress[] {
    if (this.paste !== undefined) {
      const end = event.indexOf(PASTE_END);
      if (end === -1) {
        this.paste += event;
        return [];
      }
      const text = this.paste + event.slice(0, end);
      this.paste = undefined;
      return [key({input: text, paste: true}), ...this.push(event.slice(end + PASTE_END.length))];
    }
    if (event === '') return [];
    const start = event.indexOf(PASTE_START);
    if (start !== -1) {
      const before = this.push(event.slice(0, start));
      this.paste = '';
      return [...before, ...this.push(event.slice(start + PASTE_START.length))];
    }
    if (event.startsWith(ESC) && event.length > 1) return sequenceKeys(event);
    const keys: Keypress[] = [];
    for (const char of event) {
      const press = charKey(char);
      if (press) keys.push(press);
    }
    return keys;
  }
}
