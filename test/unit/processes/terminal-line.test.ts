import {describe, expect, it} from 'vitest';
import {TerminalLines} from '../../../source/processes/terminal-line.js';
import {stripAnsi} from '../../../source/text/ansi.js';

const ESC = '\x1b';

/** The model fed `chunks`, then ended: what it passed on, as text, and the pieces. */
function feed(chunks: Array<string | Buffer>, options: {end?: boolean} = {}): {text: string; pieces: Buffer[]} {
  const pieces: Buffer[] = [];
  const lines = new TerminalLines((bytes) => pieces.push(Buffer.from(bytes)));
  for (const chunk of chunks) lines.write(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  if (options.end !== false) lines.end();
  return {text: Buffer.concat(pieces).toString('utf8'), pieces};
}

const shown = (...chunks: string[]) => feed(chunks).text;

/** Every way of cutting `text` in two (by bytes, so inside escapes and UTF-8 characters too) gives `expected`. */
function everySplit(text: string, expected: string): void {
  const bytes = Buffer.from(text);
  for (let cut = 0; cut <= bytes.length; cut++) {
    expect(feed([bytes.subarray(0, cut), bytes.subarray(cut)]).text, `cut at byte ${cut}`).toBe(expected);
  }
}

describe('TerminalLines: a line as a terminal shows it', () => {
  it('a carriage return rewrites the line from its start', () => {
    expect(shown('compiling 10%\rcompiling 99%\rdone         \n')).toBe('done         \n');
    // What is not drawn over stays, as on a terminal.
    expect(shown('compiling 99%\rdone\n')).toBe('doneiling 99%\n');
    expect(shown('abcdef\rXY\n')).toBe('XYcdef\n');
  });

  it('ESC[1G and ESC[G move to column 1; ESC[<n>G to column n', () => {
    expect(shown(`abcdef${ESC}[1GXY\n`)).toBe('XYcdef\n');
    expect(shown(`abcdef${ESC}[GXY\n`)).toBe('XYcdef\n');
    expect(shown(`abcdef${ESC}[3GXY\n`)).toBe('abXYef\n');
    expect(shown(`ab${ESC}[5GX\n`)).toBe('ab  X\n');
  });

  it('ESC[<n>D moves left n columns (1 without a number), never past the start', () => {
    expect(shown(`abcdef${ESC}[2DXY\n`)).toBe('abcdXY\n');
    expect(shown(`abcdef${ESC}[DX\n`)).toBe('abcdeX\n');
    expect(shown(`abc${ESC}[9DX\n`)).toBe('Xbc\n');
  });

  it('ESC[K and ESC[0K clear to the end, ESC[2K the whole line, ESC[1K up to the cursor', () => {
    expect(shown(`abcdef${ESC}[3G${ESC}[K\n`)).toBe('ab\n');
    expect(shown(`abcdef${ESC}[3G${ESC}[0KX\n`)).toBe('abX\n');
    expect(shown(`abcdef${ESC}[3G${ESC}[2KX\n`)).toBe('  X\n');
    expect(shown(`abcdef${ESC}[3G${ESC}[1K\n`)).toBe('   def\n');
  });

  it("npm's spinner frames replace each other; the text drawn after the clear is the line", () => {
    const frames = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏⠋⠙'.split('').map((frame) => `${ESC}[1G${ESC}[0K${frame}`);
    expect(shown(...frames, `${ESC}[1G${ESC}[0K`, 'node:events:502\r\n')).toBe('node:events:502\r\n');
    // Without the clear the last frame stays in front, as on a terminal: only the last one.
    expect(shown(...frames, 'node:events:502\r\n')).toBe('⠙node:events:502\r\n');
  });

  it('keeps colours (SGR) and the CRLF of pty output', () => {
    // The colour state a cell was drawn in is kept (here: green, then default, then red: red).
    const redrawn = shown(`${ESC}[32m⠋${ESC}[39m${ESC}[1G${ESC}[0K${ESC}[31mError${ESC}[39m: boom\r\n`);
    expect(redrawn).toMatch(new RegExp(`^(?:${ESC}\\[\\d+m)*${ESC}\\[31mError${ESC}\\[39m: boom\r\n$`));
    expect(redrawn).not.toContain('⠋');
    // A line with colours only passes as it came.
    const coloured = `${ESC}[90m12:00:01${ESC}[39m ${ESC}[32mGET${ESC}[39m /api 200\r\n`;
    expect(shown(coloured)).toBe(coloured);
    // Overwritten cells keep the colour they were drawn with (X after the reset: default colours).
    expect(shown(`${ESC}[31mred${ESC}[0m plain\rX\n`)).toBe(`${ESC}[0mX${ESC}[31med${ESC}[0m plain\n`);
    const over = shown(`plain ${ESC}[31mred${ESC}[39m\rX\n`);
    expect(stripAnsi(over)).toBe('Xlain red\n');
    expect(over).toMatch(new RegExp(`${ESC}\\[31mred${ESC}\\[39m\n$`));
  });

  it('passes a chunk of ordinary whole lines on as the same Buffer, undecoded', () => {
    const chunk = Buffer.from(`GET / 200\r\n${ESC}[32mok${ESC}[39m\r\n`);
    const {pieces} = feed([chunk], {end: false});
    const out: Buffer[] = [];
    new TerminalLines((bytes) => out.push(bytes)).write(chunk);
    expect(out).toHaveLength(1);
    expect(out[0]).toBe(chunk);
    expect(Buffer.concat(pieces).equals(chunk)).toBe(true);
  });

  it('rewrites only the line holding the redraw; the lines around it pass as they are', () => {
    expect(shown(`one\r\nwait ⠋\rready   \r\nthree\r\n`)).toBe('one\r\nready   \r\nthree\r\n');
  });

  it('holds a partial line until its newline; a split CRLF is not a redraw', () => {
    expect(shown('abc\r', '\ndef\n')).toBe('abc\r\ndef\n');
    const {pieces} = feed(['par', 'tial'], {end: false});
    expect(pieces).toHaveLength(0);
    expect(shown('par', 'tial')).toBe('partial');
  });

  it('gives the same line for a cut anywhere, inside escape sequences and UTF-8 characters too', () => {
    everySplit(`⠋ start${ESC}[1G${ESC}[0K${ESC}[32m✓${ESC}[39m done\r\n`, `${ESC}[32m✓${ESC}[39m done\r\n`);
    everySplit(`abcdef${ESC}[12D${ESC}[2KX\r\nnext\r\n`, 'X\r\nnext\r\n');
    everySplit(`10%\r20%\r€ done\n`, '€ done\n');
  });

  it('feeds byte by byte as well', () => {
    const bytes = Buffer.from(`${ESC}[1G${ESC}[0K⠋${ESC}[1G${ESC}[0K⠙${ESC}[1G${ESC}[0KError: x\r\n`);
    expect(feed([...bytes].map((byte) => Buffer.from([byte]))).text).toBe('Error: x\r\n');
  });

  it('after an idle flush shows the partial line, a redraw of it goes on a line of its own', () => {
    const pieces: string[] = [];
    const lines = new TerminalLines((bytes) => pieces.push(bytes.toString()));
    lines.write(Buffer.from('Password: '));
    lines.flush();
    expect(pieces).toEqual(['Password: ']);
    lines.write(Buffer.from('ok\n'));
    expect(pieces.join('')).toBe('Password: ok\n');
    lines.write(Buffer.from(`${ESC}[1G⠋`));
    lines.flush();
    lines.write(Buffer.from(`${ESC}[1G${ESC}[0Kready\n`));
    expect(pieces.join('')).toBe('Password: ok\n⠋\r\nready\n');
  });

  it('stays bounded under a spinner that never ends its line', () => {
    const pieces: Buffer[] = [];
    const lines = new TerminalLines((bytes) => pieces.push(bytes));
    for (let i = 0; i < 50_000; i++) lines.write(Buffer.from(`${ESC}[1G${ESC}[0K${'⠋⠙⠹⠸'[i % 4]} building ${i}`));
    expect(lines.holding).toBeLessThan(20 * 1024);
    lines.write(Buffer.from(`${ESC}[1G${ESC}[0Kbuilt\n`));
    expect(Buffer.concat(pieces).toString()).toBe('built\n');
  });

  it('reports when the first part of a held line arrived', () => {
    const seen: Array<[string, number]> = [];
    const lines = new TerminalLines((bytes, at) => seen.push([bytes.toString(), at]));
    lines.write(Buffer.from('a\nTypeEr'), 100);
    lines.write(Buffer.from('ror: x\nb\n'), 400);
    expect(seen).toEqual([
      ['a\n', 100],
      ['TypeError: x\n', 100],
      ['b\n', 400],
    ]);
  });
});
