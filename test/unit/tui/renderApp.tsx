import React from 'react';
import {render} from 'ink-testing-library';
import {vi} from 'vitest';
import {App} from '../../../source/tui/app.js';
import type {TuiPorts} from '../../../source/tui/ports/index.js';
import type {PaneDefinition} from '../../../source/tui/panes/types.js';
import {stripAnsi} from '../../../source/text/ansi.js';

export interface Size {
  columns: number;
  rows: number;
}

export const KEYS = {
  up: '\u001b[A',
  down: '\u001b[B',
  enter: '\r',
  escape: '\u001b',
  tab: '\t',
  shiftTab: '\u001b[Z',
  ctrlC: '\u0003',
  pageUp: '\u001b[5~',
  pageDown: '\u001b[6~',
  home: '\u001b[H',
  end: '\u001b[F',
};

/** ink-testing-library's stdout reports 100 columns and no rows: give it a real size and say so. */
function setSize(stdout: NodeJS.EventEmitter, size: Size): void {
  Object.defineProperty(stdout, 'columns', {value: size.columns, configurable: true});
  Object.defineProperty(stdout, 'rows', {value: size.rows, configurable: true});
  stdout.emit('resize');
}

export async function renderApp(
  ports: TuiPorts,
  size: Size = {columns: 120, rows: 40},
  options: {panes?: PaneDefinition[]; title?: string; mouseCapture?: boolean; onMouseCapture?: (on: boolean) => void} = {},
) {
  const onQuit = vi.fn();
  const instance = render(
    <App
      ports={ports}
      title={options.title ?? 'workbench · demo'}
      panes={options.panes}
      onQuit={onQuit}
      mouseCapture={options.mouseCapture}
      onMouseCapture={options.onMouseCapture}
    />,
  );
  setSize(instance.stdout, size);
  const frame = () => stripAnsi(instance.lastFrame() ?? '');
  const waitFor = (predicate: (text: string) => boolean, what = 'frame', timeout = 15_000) =>
    vi.waitFor(
      () => {
        if (!predicate(frame())) throw new Error(`${what} not shown; last frame:\n${frame()}`);
      },
      {timeout, interval: 10},
    );
  const waitForText = (text: string | RegExp, timeout?: number) =>
    waitFor((current) => (typeof text === 'string' ? current.includes(text) : text.test(current)), String(text), timeout);
  /**
   * Waits until pane `number` has the focus — the stacked layout gives the focused pane the most
   * rows (colours are off under test): a key pressed right after a pane's number key reaches the
   * pane focused when it is read, and on a loaded machine the focus may not have moved yet.
   */
  const waitForFocus = (number: number) => waitFor((current) => tallestPane(current) === number, `focus on pane ${number}`);
  const press = async (...keys: string[]) => {
    for (const key of keys) {
      instance.stdin.write(key);
      // A lone ESC is only known to be Escape after ink's next tick; let every key settle.
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
  };
  return {
    ...instance,
    onQuit,
    frame,
    waitFor,
    waitForText,
    waitForFocus,
    press,
    resize: (next: Size) => setSize(instance.stdout, next),
    /** The first frame row that contains `text`. */
    line: (text: string) =>
      frame()
        .split('\n')
        .find((row) => row.includes(text)) ?? '',
  };
}

/** The number of the pane drawn with the most rows in a stacked frame (`│N Title` opens each box). */
function tallestPane(frame: string): number | undefined {
  let best: {number: number; rows: number} | undefined;
  let open: {number: number; rows: number} | undefined;
  for (const line of frame.split('\n')) {
    const title = /^│(\d) /.exec(line);
    if (title) open = {number: Number(title[1]), rows: 0};
    else if (line.startsWith('╰')) {
      if (open && (!best || open.rows > best.rows)) best = open;
      open = undefined;
    } else if (open) open.rows++;
  }
  return best?.number;
}
