import React from 'react';
import {Text} from 'ink';
import {render} from 'ink-testing-library';
import {afterEach, describe, expect, it, vi} from 'vitest';
import {batchedDeliveries, DeliveriesContext} from '../../../source/tui/hooks/deliveries.js';
import {useWatched} from '../../../source/tui/hooks/useWatched.js';

// Two watched values, as the Processes pane's output and the Incidents pane's list: each port's
// watch is called by the test, each fetch answers when the test says so.
function source(initial: string) {
  let value = initial;
  let onChange: () => void = () => {};
  let answer: (() => void) | undefined;
  let hold = false;
  return {
    set: (next: string) => void (value = next),
    holdAnswers: (on: boolean) => void (hold = on),
    release: () => answer?.(),
    change: () => onChange(),
    watch: (callback: () => void) => {
      onChange = callback;
      return () => {};
    },
    fetch: () =>
      hold
        ? new Promise<string>((resolve) => {
            answer = () => resolve(value);
          })
        : Promise.resolve(value),
  };
}

function Pair({a, b, renders}: {a: ReturnType<typeof source>; b: ReturnType<typeof source>; renders: {count: number}}): React.JSX.Element {
  const first = useWatched(a.fetch, a.watch, []);
  const second = useWatched(b.fetch, b.watch, []);
  renders.count += 1;
  return <Text>{`${first.data ?? '-'} ${second.data ?? '-'}`}</Text>;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('answers of fetches started together', () => {
  it('render once: the first waits for the one still running', async () => {
    const a = source('a1');
    const b = source('b1');
    const renders = {count: 0};
    const deliveries = batchedDeliveries({lingerMs: 5, maxWaitMs: 600_000});
    const app = render(
      <DeliveriesContext.Provider value={deliveries}>
        <Pair a={a} b={b} renders={renders} />
      </DeliveriesContext.Provider>,
    );
    await vi.waitFor(() => expect(app.lastFrame()).toBe('a1 b1'), {timeout: 15_000});
    const before = renders.count;

    a.set('a2');
    b.set('b2');
    b.holdAnswers(true);
    a.change();
    b.change();
    // a's answer is in; b's is not: nothing is shown of either yet, however long b takes (a quiet
    // period: on a slow machine it may pass before a's answer is even in, and still holds).
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(app.lastFrame()).toBe('a1 b1');
    expect(renders.count).toBe(before);

    b.release();
    await vi.waitFor(() => expect(app.lastFrame()).toBe('a2 b2'), {timeout: 15_000});
    expect(renders.count - before).toBe(1);
    deliveries.close();
    app.unmount();
  });

  it('do not wait past maxWaitMs for a fetch that hangs', async () => {
    const a = source('a1');
    const b = source('b1');
    const deliveries = batchedDeliveries({lingerMs: 5, maxWaitMs: 30});
    const app = render(
      <DeliveriesContext.Provider value={deliveries}>
        <Pair a={a} b={b} renders={{count: 0}} />
      </DeliveriesContext.Provider>,
    );
    await vi.waitFor(() => expect(app.lastFrame()).toBe('a1 b1'), {timeout: 15_000});
    a.set('a2');
    b.holdAnswers(true);
    a.change();
    b.change();
    await vi.waitFor(() => expect(app.lastFrame()).toBe('a2 b1'), {timeout: 15_000});
    deliveries.close();
    app.unmount();
  });

  it('a refresh asked for (after a key) is shown at once, not batched', async () => {
    const a = source('a1');
    const b = source('b1');
    const deliveries = batchedDeliveries({lingerMs: 5, maxWaitMs: 600_000});
    let refresh: () => void = () => {};
    function Refreshable(): React.JSX.Element {
      const first = useWatched(a.fetch, a.watch, []);
      useWatched(b.fetch, b.watch, []);
      refresh = first.refresh;
      return <Text>{first.data ?? '-'}</Text>;
    }
    const app = render(
      <DeliveriesContext.Provider value={deliveries}>
        <Refreshable />
      </DeliveriesContext.Provider>,
    );
    await vi.waitFor(() => expect(app.lastFrame()).toBe('a1'), {timeout: 15_000});
    // b hangs: a watched answer would wait for it; an asked one does not.
    b.holdAnswers(true);
    b.change();
    a.set('a2');
    refresh();
    await vi.waitFor(() => expect(app.lastFrame()).toBe('a2'), {timeout: 15_000});
    deliveries.close();
    app.unmount();
  });
});
