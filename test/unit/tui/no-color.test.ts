import {describe, expect, it} from 'vitest';
import {withoutColours} from '../../../source/tui/terminal/noColor.js';

describe('NO_COLOR', () => {
  it('drops colour parameters of every kind and keeps bold, dim and inverse', () => {
    expect(withoutColours('\u001b[32m✓ ok\u001b[39m')).toBe('✓ ok');
    expect(withoutColours('\u001b[1;31mE\u001b[0m')).toBe('\u001b[1mE\u001b[0m');
    expect(withoutColours('\u001b[38;5;196mA\u001b[48;2;1;2;3mB\u001b[7mC\u001b[27m')).toBe('AB\u001b[7mC\u001b[27m');
    expect(withoutColours('\u001b[2m\u001b[96mdim\u001b[39m\u001b[22m')).toBe('\u001b[2mdim\u001b[22m');
    expect(withoutColours('\u001b[2J\u001b[Hplain')).toBe('\u001b[2J\u001b[Hplain');
  });
});
