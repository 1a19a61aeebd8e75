import {describe, expect, it} from 'vitest';
import {dedupeFrames, frameUpdate} from '../../../source/tui/terminal/frameWriter.js';

// What ink 6 writes for a full-screen frame: the synchronized-output brackets around a clear and the whole frame.
const CLEAR = '\u001b[2J\u001b[3J\u001b[H';
const BEGIN_SYNC = '\u001b[?2026h';
const END_SYNC = '\u001b[?2026l';

function terminal() {
  const written: string[] = [];
  const stream = {isTTY: true, write: (chunk: string) => (written.push(chunk), true)} as unknown as NodeJS.WriteStream;
  const restore = dedupeFrames(stream);
  const frame = (...lines: string[]) => {
    stream.write(BEGIN_SYNC);
    stream.write(CLEAR + lines.join('\n'));
    stream.write(END_SYNC);
  };
  return {stream, written, restore, frame};
}

describe('the frame writer', () => {
  it('writes the first frame whole, without clearing the screen first', () => {
    const screen = terminal();
    screen.frame('one', 'two');
    expect(screen.written).toEqual([BEGIN_SYNC, '\u001b[1;1H\u001b[2Kone\n\u001b[2Ktwo\u001b[J', END_SYNC]);
  });

  it('writes nothing at all for a frame equal to the one on screen, not even its brackets', () => {
    const screen = terminal();
    screen.frame('one', 'two');
    const before = screen.written.length;
    screen.frame('one', 'two');
    screen.frame('one', 'two');
    expect(screen.written).toHaveLength(before);
  });

  it('rewrites only the lines that changed, where they are', () => {
    const screen = terminal();
    screen.frame('tabs', 'web 1m', '\u001b[2mGET / 200\u001b[22m', 'status');
    screen.written.length = 0;
    screen.frame('tabs', 'web 2m', '\u001b[2mGET / 200\u001b[22m', 'status 1 error');
    expect(screen.written).toEqual([BEGIN_SYNC, '\u001b[2;1H\u001b[2Kweb 2m\u001b[4;1H\u001b[2Kstatus 1 error', END_SYNC]);
  });

  it('erases the rows below a shorter frame', () => {
    expect(frameUpdate(['a', 'b', 'c'], ['a'])).toBe('\u001b[2;1H\u001b[J');
  });

  it('writes the next frame whole after anything else was written (a resize, a message)', () => {
    const screen = terminal();
    screen.frame('one', 'two');
    screen.stream.write('\u001b[2J');
    screen.written.length = 0;
    screen.frame('one', 'two');
    expect(screen.written.join('')).toContain('one\n\u001b[2Ktwo');
  });

  it('passes a clipboard copy (OSC 52) through without redrawing the frame: it draws nothing', () => {
    const screen = terminal();
    screen.frame('one', 'two');
    screen.stream.write('\u001b]52;c;aGk=\u0007');
    expect(screen.written.at(-1)).toBe('\u001b]52;c;aGk=\u0007');
    screen.written.length = 0;
    screen.frame('one', 'two');
    expect(screen.written.join('')).toBe('');
  });

  it('calls a write callback for what it did not write, and undoes itself', () => {
    const screen = terminal();
    screen.frame('one');
    let called = 0;
    screen.stream.write(CLEAR + 'one', () => called++);
    expect(called).toBe(1);
    screen.restore();
    screen.stream.write(CLEAR + 'one');
    expect(screen.written.at(-1)).toBe(CLEAR + 'one');
  });
});
