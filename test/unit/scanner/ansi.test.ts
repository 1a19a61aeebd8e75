import {describe, expect, it} from 'vitest';
import {stripAnsi} from '../../../source/text/ansi.js';

describe('stripAnsi', () => {
  it('removes SGR colours and other CSI sequences', () => {
    expect(stripAnsi('\x1b[96msrc/a.ts\x1b[0m:\x1b[93m2\x1b[0m - \x1b[91merror\x1b[0m\x1b[90m TS2322: \x1b[0mType')).toBe('src/a.ts:2 - error TS2322: Type');
    expect(stripAnsi('\x1b[38;2;255;0;0mred\x1b[m \x1b[?25lhidden cursor\x1b[?25h')).toBe('red hidden cursor');
  });

  it('removes OSC sequences ended by BEL or ST, such as hyperlinks and window titles', () => {
    expect(stripAnsi('\x1b]8;;file:///app/a.ts\x07a.ts\x1b]8;;\x07:3')).toBe('a.ts:3');
    expect(stripAnsi('\x1b]0;vite dev\x1b\\ready')).toBe('ready');
  });

  it('removes other escapes and stray control characters but keeps tabs', () => {
    expect(stripAnsi('\x1b(B\x1b7at\tmain\x1b8\x07\x00')).toBe('at\tmain');
  });

  it('shows what a terminal shows after carriage returns', () => {
    expect(stripAnsi('progress 10%\rprogress 100%')).toBe('progress 100%');
    expect(stripAnsi('abcdef\rXY')).toBe('XYcdef');
    expect(stripAnsi('compiling a long file name...\r\x1b[KError: boom')).toBe('Error: boom');
    expect(stripAnsi('\x1b[2K\x1b[1G✓ Compiled in 318ms')).toBe('✓ Compiled in 318ms');
    expect(stripAnsi('line one\r\nline two\r')).toBe('line one\nline two');
  });

  it('leaves plain text untouched', () => {
    const text = 'GET /api/users 200 12 ms — ünïcödé ⨯';
    expect(stripAnsi(text)).toBe(text);
  });
});
