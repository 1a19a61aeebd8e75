import {describe, expect, it} from 'vitest';
import {editorArguments, parseLocation} from '../../../source/tui/terminal/editor.js';
import {handTerminalOver} from '../../../source/tui/terminal/handOff.js';

describe('opening a location in $EDITOR', () => {
  it('passes +line file to vi-likes, --goto to VS Code, file:line:col to the rest', () => {
    const at = parseLocation('src/cart.ts:14:7')!;
    expect(at).toEqual({file: 'src/cart.ts', line: 14, column: 7});
    expect(editorArguments('/usr/bin/nvim', at)).toEqual(['+14', 'src/cart.ts']);
    expect(editorArguments('nano', at)).toEqual(['+14', 'src/cart.ts']);
    expect(editorArguments('code -w', at)).toEqual(['--goto', 'src/cart.ts:14:7']);
    expect(editorArguments('subl', at)).toEqual(['src/cart.ts:14:7']);
    expect(editorArguments('vim', parseLocation('file:///app/x.mjs')!)).toEqual(['/app/x.mjs']);
    expect(parseLocation('')).toBeUndefined();
  });

  it('leaves the alternate screen and raw mode while the editor runs, and comes back after', () => {
    // The terminal is the edge of the world: a recording stand-in for the tty streams.
    const events: string[] = [];
    const stdin = {isTTY: true, isRaw: true, setRawMode: (mode: boolean) => events.push(`raw ${mode}`)};
    const stdout = {isTTY: true, write: (text: string) => events.push(JSON.stringify(text))};
    const result = handTerminalOver({stdin, stdout}, () => {
      events.push('editor runs');
      return 7;
    });
    expect(result).toBe(7);
    expect(events).toEqual([JSON.stringify('\u001b[?25h\u001b[?1049l'), 'raw false', 'editor runs', 'raw true', JSON.stringify('\u001b[?1049h\u001b[H\u001b[2J\u001b[?25l')]);
  });
});
