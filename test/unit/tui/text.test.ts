import {describe, expect, it} from 'vitest';
import {lastLines, toDisplayLines} from '../../../source/tui/text/terminalLines.js';
import {stripAnsi} from '../../../source/text/ansi.js';
import {formatDuration} from '../../../source/core/duration.js';
import {formatAge} from '../../../source/incidents/age.js';
import {shownAge} from '../../../source/tui/text/age.js';

describe('toDisplayLines', () => {
  it('keeps colours and drops cursor movement, erase and title sequences', () => {
    const raw = '\u001b[1;32mVITE\u001b[0m ready\r\n\u001b[?25l\u001b[2J\u001b[Hcleared screen\r\n\u001b]0;vite\u0007done\u001b[K\n';
    expect(toDisplayLines(raw)).toEqual(['\u001b[1;32mVITE\u001b[0m ready', 'cleared screen', 'done']);
  });

  it('shows the last rewrite of a line redrawn with carriage returns', () => {
    expect(toDisplayLines('downloading 10%\rdownloading 80%\r\u001b[2K\rdownloaded\nnext\n')).toEqual(['downloaded', 'next']);
  });

  it('carries a colour that spans lines onto the next line until a reset', () => {
    const lines = toDisplayLines('\u001b[31merror: first\nsecond line\u001b[0m\nplain\n');
    expect(lines[1]).toBe('\u001b[31msecond line\u001b[0m');
    expect(lines[2]).toBe('plain');
  });

  it('expands tabs to 8-column stops and drops other control characters', () => {
    expect(toDisplayLines('a\tb\u0007\u0008c\n')).toEqual(['a       bc']);
    expect(stripAnsi(toDisplayLines('\u001b[33mab\u001b[0m\tc')[0]!)).toBe('ab      c');
  });

  it('keeps empty lines in the middle but not the one after the final newline', () => {
    expect(toDisplayLines('one\n\nthree\n')).toEqual(['one', '', 'three']);
  });

  it('lastLines returns only the tail that fits', () => {
    const raw = Array.from({length: 50}, (_, index) => `line ${index}`).join('\n');
    expect(lastLines(raw, 3)).toEqual(['line 47', 'line 48', 'line 49']);
    expect(lastLines(raw, 0)).toEqual([]);
  });
});

describe('durations', () => {
  it('formats uptimes compactly', () => {
    expect(formatDuration(42_400)).toBe('42s');
    expect(formatDuration(5 * 60_000 + 3_000)).toBe('5m');
    // After the first minute an uptime moves once a minute: the same text all through it.
    expect(formatDuration(5 * 60_000 + 59_999)).toBe('5m');
    expect(formatDuration(59_999)).toBe('59s');
    expect(formatDuration(3 * 3_600_000 + 12 * 60_000)).toBe('3h12m');
    expect(formatDuration(2 * 86_400_000 + 3 * 3_600_000)).toBe('2d03h');
    expect(formatDuration(-5)).toBe('0s');
  });
});

describe('incident ages in the pane', () => {
  const at = (seconds: number) => 1_700_000_000_000 + seconds * 1000;

  it('read in tens of seconds within the first minute, then as get-incidents prints them', () => {
    // Counted from the wall clock's last ten seconds (at(0) is on one).
    expect(shownAge(at(9.9), at(0))).toBe('<10s');
    expect(shownAge(at(10), at(0))).toBe('10s');
    expect(shownAge(at(59.9), at(0))).toBe('50s');
    expect(shownAge(at(60), at(0))).toBe('1m');
    expect(shownAge(at(125), at(0))).toBe(formatAge(120_000));
    expect(shownAge(at(0), at(5))).toBe('<10s');
  });

  it('all move in the same tick, at most once every ten seconds', () => {
    const seen = [at(0.3), at(2.7), at(6.1), at(8.8)];
    const moves: number[] = [];
    let shown = '';
    for (let tenth = 0; tenth <= 1800; tenth++) {
      const now = at(10 + tenth / 10);
      const text = seen.map((since) => shownAge(now, since)).join(' ');
      if (text !== shown && shown !== '') moves.push(tenth / 10);
      shown = text;
    }
    expect(moves.length).toBeGreaterThan(0);
    for (const second of moves) expect(second % 10).toBe(0);
  });
});
