import {describe, expect, it} from 'vitest';
import {colourlessStream, withoutColours} from '../../../source/tui/terminal/noColor.js';
import {dedupeFrames} from '../../../source/tui/terminal/frameWriter.js';

describe('NO_COLOR', () => {
  it('drops colour parameters of every kind and keeps bold, dim and inverse', () => {
    expect(withoutColours('\u001b[32m✓ ok\u001b[39m')).toBe('✓ ok');
    expect(withoutColours('\u001b[1;31mE\u001b[0m')).toBe('\u001b[1mE\u001b[0m');
    expect(withoutColours('\u001b[38;5;196mA\u001b[48;2;1;2;3mB\u001b[7mC\u001b[27m')).toBe('AB\u001b[7mC\u001b[27m');
    expect(withoutColours('\u001b[2m\u001b[96mdim\u001b[39m\u001b[22m')).toBe('\u001b[2mdim\u001b[22m');
    expect(withoutColours('\u001b[2J\u001b[Hplain')).toBe('\u001b[2J\u001b[Hplain');
  });

  it('composes with the frame writer as the TUI stacks them: frames colourless, a repeated frame not written', () => {
    const written: string[] = [];
    const terminal = {isTTY: true, write: (chunk: string) => (written.push(chunk), true)} as unknown as NodeJS.WriteStream;
    const stdout = colourlessStream(terminal);
    const restore = dedupeFrames(stdout);
    const frame = '\u001b[2J\u001b[3J\u001b[H\u001b[32mweb\u001b[39m running';
    stdout.write(frame);
    stdout.write(frame);
    expect(written).toHaveLength(1);
    expect(written[0]).toContain('web running');
    expect(written[0]).not.toContain('\u001b[32m');
    restore();
    stdout.write('\u001b[31mbye\u001b[39m');
    expect(written.at(-1)).toBe('bye');
  });
});
