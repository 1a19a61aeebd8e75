import {describe, expect, it} from 'vitest';
import {stackHeights} from '../../../source/tui/layouts/stackHeights.js';
import {listWindowStart} from '../../../source/tui/layouts/listWindow.js';
import {Command, focusPaneNumber, keyLabel, matchesCommand, type Keypress} from '../../../source/tui/key/keyBindings.js';

describe('stackHeights', () => {
  it('gives the focused pane the larger share and uses every row', () => {
    expect(stackHeights(2, 0, 22)).toEqual([14, 8]);
    expect(stackHeights(2, 1, 38)).toEqual([15, 23]);
  });

  it('hides the panes farthest from the focused one when not all fit', () => {
    const heights = stackHeights(5, 4, 20);
    expect(heights.slice(0, 2)).toEqual([0, 0]);
    expect(heights[4]).toBeGreaterThan(heights[3]!);
    expect(heights.reduce((sum, height) => sum + height, 0)).toBe(20);
  });

  it('shows at least the focused pane on a tiny body', () => {
    expect(stackHeights(2, 1, 4)).toEqual([0, 4]);
  });
});

describe('listWindowStart', () => {
  it('scrolls only when the selection leaves the window', () => {
    expect(listWindowStart(0, 100, 10)).toBe(0);
    expect(listWindowStart(9, 100, 10, 0)).toBe(0);
    expect(listWindowStart(10, 100, 10, 0)).toBe(1);
    expect(listWindowStart(5, 100, 10, 8)).toBe(5);
    expect(listWindowStart(99, 100, 10, 0)).toBe(90);
    expect(listWindowStart(3, 5, 10, 4)).toBe(0);
  });
});

describe('key bindings', () => {
  const press = (patch: Partial<Keypress>): Keypress => ({input: '', ctrl: false, shift: false, meta: false, ...patch});

  it('tells Tab from Shift-Tab and arrows from letters', () => {
    expect(matchesCommand(Command.NEXT_PANE, press({name: 'tab'}))).toBe(true);
    expect(matchesCommand(Command.NEXT_PANE, press({name: 'tab', shift: true}))).toBe(false);
    expect(matchesCommand(Command.PREV_PANE, press({name: 'tab', shift: true}))).toBe(true);
    expect(matchesCommand(Command.DOWN, press({input: 'j'}))).toBe(true);
    expect(matchesCommand(Command.DOWN, press({name: 'down'}))).toBe(true);
    expect(matchesCommand(Command.QUIT, press({input: 'q', ctrl: true}))).toBe(false);
    expect(matchesCommand(Command.FORCE_QUIT, press({input: 'c', ctrl: true}))).toBe(true);
  });

  it('reads pane numbers 1-9 only from plain digits', () => {
    expect(focusPaneNumber(press({input: '2'}))).toBe(2);
    expect(focusPaneNumber(press({input: '0'}))).toBeUndefined();
    expect(focusPaneNumber(press({input: '2', ctrl: true}))).toBeUndefined();
  });

  it('labels commands for the help overlay', () => {
    expect(keyLabel(Command.UP)).toBe('↑/k');
    expect(keyLabel(Command.PREV_PANE)).toBe('shift-tab');
  });
});
