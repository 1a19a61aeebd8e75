import React, {act} from 'react';
import {render} from 'ink-testing-library';
import {vi} from 'vitest';
import {KeypressContext, type KeypressHandler} from '../../../source/tui/contexts/KeypressContext.js';
import {PortsContext} from '../../../source/tui/contexts/PortsContext.js';
import {KeySplitter} from '../../../source/tui/key/keySequences.js';
import type {TuiPorts} from '../../../source/tui/ports/index.js';
import type {PaneDefinition} from '../../../source/tui/panes/types.js';
import {stripAnsi} from '../../../source/text/ansi.js';

interface Subscription {
  handler: {current: KeypressHandler};
  isActive: {current: boolean};
  priority: number;
  order: number;
}

/**
 * A pane alone, focused, its keys handed over by the test: `press('jr')` gives every key of the
 * write to the handlers in one React batch, so nothing renders between them (a terminal that
 * delivers keys faster than frames). Each key must act on what the key before it did.
 */
export function renderBatched(ports: TuiPorts, pane: PaneDefinition, size = {columns: 120, rows: 40}) {
  let subscriptions: Subscription[] = [];
  let order = 0;
  const registry = {
    subscribe(subscription: Omit<Subscription, 'order'>) {
      const entry = {...subscription, order: order++};
      subscriptions = [...subscriptions, entry];
      return () => {
        subscriptions = subscriptions.filter((item) => item !== entry);
      };
    },
  };
  const instance = render(
    <PortsContext.Provider value={ports}>
      <KeypressContext.Provider value={registry}>
        <pane.Component focused width={size.columns} height={size.rows} compact={false} />
      </KeypressContext.Provider>
    </PortsContext.Provider>,
  );
  const frame = () => stripAnsi(instance.lastFrame() ?? '');
  const waitFor = (predicate: (text: string) => boolean, what = 'frame') =>
    vi.waitFor(
      () => {
        if (!predicate(frame())) throw new Error(`${what} not shown; last frame:\n${frame()}`);
      },
      {timeout: 15_000, interval: 10},
    );
  const press = async (keys: string) => {
    const presses = new KeySplitter().push(keys);
    const global = globalThis as {IS_REACT_ACT_ENVIRONMENT?: boolean};
    global.IS_REACT_ACT_ENVIRONMENT = true;
    try {
      act(() => {
        for (const key of presses) {
          const ordered = [...subscriptions].sort((a, b) => b.priority - a.priority || b.order - a.order);
          for (const subscription of ordered) if (subscription.isActive.current && subscription.handler.current(key)) break;
        }
      });
    } finally {
      global.IS_REACT_ACT_ENVIRONMENT = false;
    }
  };
  return {
    ...instance,
    frame,
    waitFor,
    waitForText: (text: string | RegExp) => waitFor((current) => (typeof text === 'string' ? current.includes(text) : text.test(current)), String(text)),
    press,
  };
}
