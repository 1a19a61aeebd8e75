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
    const delivered = vi.spyOn(deliveries, 'deliver');
    // The test turns the clock: "however long b takes" is a second of the deliveries' own lingering
    // (two hundred looks at b), not a pause that a loaded machine may spend before a's answer is in.
    vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout', 'Date']});
    a.change();
    b.change();
    await vi.advanceTimersByTimeAsync(1000);
    // a's answer is in, waiting; b's is not: nothing is shown of either yet.
    expect(delivered).toHaveBeenCalledTimes(1);
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

  it('an answer held back by the batch is not shown over a newer one asked for after it', async () => {
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
    // a's watched answer (a2) waits for b, which hangs; meanwhile a key asks again and gets a3 at once.
    b.holdAnswers(true);
    b.change();
    a.set('a2');
    a.change();
    await new Promise((resolve) => setTimeout(resolve, 50));
    a.set('a3');
    refresh();
    await vi.waitFor(() => expect(app.lastFrame()).toBe('a3'), {timeout: 15_000});
    b.release();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(app.lastFrame()).toBe('a3');
    deliveries.close();
    app.unmount();
  });

  it('mutate shows a change at once and drops the answer of a call that started before it', async () => {
    const a = source('unread');
    let watched: ReturnType<typeof useWatched<string>> | undefined;
    function Mutable(): React.JSX.Element {
      watched = useWatched(a.fetch, a.watch, []);
      return <Text>{watched.data ?? '-'}</Text>;
    }
    const app = render(<Mutable />);
    await vi.waitFor(() => expect(app.lastFrame()).toBe('unread'), {timeout: 15_000});
    // A poll is in flight when the user's action lands: its answer (from before) must not undo it.
    a.holdAnswers(true);
    a.change();
    watched!.mutate(() => 'read');
    await vi.waitFor(() => expect(app.lastFrame()).toBe('read'), {timeout: 15_000});
    a.release();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(app.lastFrame()).toBe('read');
    // The next call started after the change: its answer is shown.
    a.holdAnswers(false);
    a.set('read elsewhere');
    watched!.refresh();
    await vi.waitFor(() => expect(app.lastFrame()).toBe('read elsewhere'), {timeout: 15_000});
    app.unmount();
  });
});
