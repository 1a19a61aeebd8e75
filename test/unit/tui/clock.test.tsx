import React from 'react';
import {Text} from 'ink';
import {render} from 'ink-testing-library';
import {afterEach, describe, expect, it, vi} from 'vitest';
import {ClockProvider, useNow} from '../../../source/tui/hooks/useNow.js';

// The clock is driven by fake timers: what is counted is renders per tick, never elapsed time.
afterEach(() => {
  vi.useRealTimers();
});

// Timers and the date are fake; setImmediate stays real, for React's scheduler.
const FAKED: ('setTimeout' | 'clearTimeout' | 'setInterval' | 'clearInterval' | 'Date')[] = ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'];

/** Fake time in small steps, letting React's own scheduling (not faked) run between them. */
async function passSeconds(seconds: number): Promise<void> {
  for (let step = 0; step < seconds * 10; step++) {
    await vi.advanceTimersByTimeAsync(100);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function Age({shown, renders}: {shown: (now: number) => string; renders: {count: number}}): React.JSX.Element {
  const now = useNow(shown);
  renders.count += 1;
  return <Text>{shown(now)}</Text>;
}

describe('the TUI clock', () => {
  it('redraws a component only when the text it shows reads differently, and two panes in one render', async () => {
    vi.useFakeTimers({now: 1_000_000_000_500, toFake: FAKED});
    const quiet = {count: 0};
    const minutes = {count: 0};
    const seconds = {count: 0};
    const app = render(
      <ClockProvider>
        <Age shown={() => 'stopped'} renders={quiet} />
        <Age shown={(now) => `${Math.floor(now / 60_000)}m`} renders={minutes} />
        <Age shown={(now) => `${Math.floor(now / 1000)}s`} renders={seconds} />
      </ClockProvider>,
    );
    const first = {quiet: quiet.count, minutes: minutes.count, seconds: seconds.count};
    await passSeconds(5);
    // The seconds moved five times: the clock set the time five times, each time one render for everyone below it.
    expect(seconds.count - first.seconds).toBe(5);
    expect(app.lastFrame()).toContain(`${Math.floor(Date.now() / 1000)}s`);
    app.unmount();
  });

  it('does not redraw at all while no shown text changes', async () => {
    vi.useFakeTimers({now: 1_000_000_000_500, toFake: FAKED});
    const quiet = {count: 0};
    const app = render(
      <ClockProvider>
        <Age shown={() => 'stopped'} renders={quiet} />
        <Age shown={(now) => `${Math.floor(now / 3_600_000)}h`} renders={{count: 0}} />
      </ClockProvider>,
    );
    const before = quiet.count;
    await passSeconds(30);
    expect(quiet.count).toBe(before);
    app.unmount();
  });
});
