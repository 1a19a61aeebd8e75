import React from 'react';
import {render} from 'ink-testing-library';
import {unstable_IdlePriority as IDLE, unstable_scheduleCallback as scheduleTask} from 'scheduler';
import {vi} from 'vitest';
import {App} from '../../../source/tui/app.js';
import type {TuiPorts} from '../../../source/tui/ports/index.js';
import type {PaneDefinition} from '../../../source/tui/panes/types.js';
import {stripAnsi} from '../../../source/text/ansi.js';
import {focusedPane} from '../../helpers/pane-focus.js';

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
   * Resolves once React has nothing left to render: its scheduler runs an idle task only when no
   * other task waits (a render asked for before this call has been drawn as a frame by then).
   */
  const rendered = () => new Promise<void>((resolve) => scheduleTask(IDLE, () => void resolve()));
  /** The status bar: the frame's last row. */
  const statusBar = (current: string) => current.trimEnd().split('\n').at(-1) ?? '';
  /**
   * Waits until the status bar shows `text`. A pane's own key line may name the same key at all
   * times; the status bar shows what the keys do now (the Chat pane offers only the cancel key
   * while a turn runs).
   */
  const waitForStatusBar = (text: string) => waitFor((current) => statusBar(current).includes(text), `status bar with ${text}`);
  /** Waits until pane `number` has the focus (helpers/pane-focus.ts): on a loaded machine it may not have moved yet. */
  const waitForFocus = (number: number) => waitFor((current) => focusedPane(current) === number, `focus on pane ${number}`);
  const press = async (...keys: string[]) => {
    for (const key of keys) {
      instance.stdin.write(key);
      // A lone ESC is Escape once ink's setImmediate after the read finds no more input; a key
      // written before that reads as Alt+key. Ours, queued behind it, runs after it: a pause alone
      // can end first on a loaded machine (ESC s became Alt+s). The pause lets the key settle.
      await new Promise((resolve) => setImmediate(resolve));
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
    waitForStatusBar,
    rendered,
    press,
    resize: (next: Size) => setSize(instance.stdout, next),
    /** The first frame row that contains `text`. */
    line: (text: string) =>
      frame()
        .split('\n')
        .find((row) => row.includes(text)) ?? '',
  };
}
