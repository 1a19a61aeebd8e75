import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {cleanup} from 'ink-testing-library';
import {startInProcessDaemon, type InProcessDaemon} from './daemonHarness.js';
import {KEYS, renderApp} from './renderApp.js';

// The Processes pane's output view on the real daemon (issue 7 item 2), zoom, the help overlay's
// scrolling and the status bar's hints (item 7).

let daemon: InProcessDaemon;
beforeEach(async () => {
  daemon = await startInProcessDaemon();
});
afterEach(async () => {
  cleanup();
  await daemon.close();
});

/** 300 numbered lines, one of them 400 characters long, then the process waits. */
async function startLog() {
  await daemon.run(
    `node -e "for (let i = 1; i <= 300; i++) console.log('line ' + String(i).padStart(3, '0') + (i === 200 ? ' ' + 'y'.repeat(400) + ' LONG-END' : '')); setInterval(() => {}, 1000)"`,
    'log',
  );
  await vi.waitFor(() => expect(daemon.supervisor.output(daemon.key('log'))).toContain('line 300'), {timeout: 10_000});
}

const shownLines = (frame: string) => [...frame.matchAll(/line (\d{3})/g)].map((match) => Number(match[1]));

describe('reading a process output', () => {
  it('follows the tail, scrolls back through the whole ring with pgup/g, marks the pause, and G follows again', async () => {
    await startLog();
    const app = await renderApp(daemon.ports);
    await app.waitForText('line 300');
    await app.waitForText('enter read');
    await app.press(KEYS.enter);
    await app.waitForText('following');
    await app.waitForText('w wrap');
    await app.press(KEYS.pageUp);
    await app.waitForText(/paused \d+\/300 · G\/end follows/);
    expect(Math.max(...shownLines(app.frame()))).toBeLessThan(300);
    // The top of the ring: line 1, which the list's 200-line preview never had.
    await app.press('g');
    await app.waitFor((frame) => shownLines(frame)[0] === 1, 'line 001 on top');
    await app.press('j', 'j');
    await app.waitFor((frame) => shownLines(frame)[0] === 3, 'scrolled two lines');
    await app.press('G');
    await app.waitFor((frame) => shownLines(frame).includes(300) && frame.includes('following'), 'following again');
    await app.press(KEYS.escape);
    await app.waitForText('enter read');
  });

  it('w wraps long lines; / searches, highlights and jumps with n and N', async () => {
    await startLog();
    // Rows enough for the wrapped long line beside five other panes' stacked rows.
    const app = await renderApp(daemon.ports, {columns: 120, rows: 44});
    await app.waitForText('line 300');
    await app.press(KEYS.enter, '/');
    for (const char of 'line 150') await app.press(char);
    await app.press(KEYS.enter);
    await app.waitForText('1 match');
    await app.waitFor((frame) => shownLines(frame).includes(150) && !shownLines(frame).includes(300), 'the match scrolled into view');

    // Esc must be read alone (it clears the search) before the next key: together they read as Alt+/.
    await app.press(KEYS.escape);
    await app.waitFor((frame) => !frame.includes('search:'), 'search cleared');
    await app.press('/');
    for (const char of 'line 2') await app.press(char);
    await app.press(KEYS.enter);
    await app.waitForText('100 matches');
    await app.press('n');
    await app.waitForText('search: line 2');
    await app.press(KEYS.escape, 'G');
    await app.waitFor((frame) => !frame.includes('search:') && shownLines(frame).includes(300), 'search cleared, following');

    await app.press('g');
    for (let step = 0; step < 40 && !app.frame().includes('line 200'); step++) await app.press(KEYS.pageDown);
    await app.waitForText('line 200');
    expect(app.frame()).not.toContain('LONG-END');
    await app.press('w');
    await app.waitForText('LONG-END');
    expect(app.frame()).toMatch(/wrap/);
  });

  it('a restart keeps the previous run’s output, under a marker line', async () => {
    await startLog();
    await daemon.supervisor.restart(daemon.key('log'));
    await vi.waitFor(() => expect(daemon.supervisor.output(daemon.key('log')).match(/line 300/g)).toHaveLength(2), {timeout: 10_000});
    const text = daemon.supervisor.output(daemon.key('log'));
    expect(text).toMatch(/line 300\r?\n── restarted at \d\d:\d\d:\d\d \(run 2\) ──\r?\nline 001/);
    const app = await renderApp(daemon.ports);
    await app.waitForText('line 300');
    await app.press(KEYS.enter, 'g');
    await app.waitFor((frame) => shownLines(frame)[0] === 1, 'first run on top');
    await app.press('/', 'restarted\r');
    await app.waitForText('search: restarted');
    await app.waitForText(/── restarted at .* \(run 2\) ──/);
  });
});

describe('zoom, help and hints', () => {
  it('+ zooms the focused pane to the whole screen and back; z too where the pane has no z', async () => {
    await startLog();
    const app = await renderApp(daemon.ports, {columns: 80, rows: 24});
    await app.waitForText('line 300');
    const rowsOfOutput = () => shownLines(app.frame()).length;
    const before = rowsOfOutput();
    expect(app.frame()).toContain('2 Incidents');
    await app.press('+');
    await app.waitFor((frame) => !frame.includes('2 Incidents') && frame.includes('+ unzoom'), 'zoomed');
    expect(rowsOfOutput()).toBeGreaterThan(before);
    await app.press('+');
    await app.waitForText('2 Incidents');
    await app.press('z');
    await app.waitForText('+ unzoom');
    await app.press('z');
    await app.waitFor((frame) => !frame.includes('+ unzoom'), 'unzoomed');
  });

  it('help scrolls when taller than the screen and lists every key: pgup/pgdn, home/end, zoom, the output keys', async () => {
    const app = await renderApp(daemon.ports, {columns: 80, rows: 24});
    await app.waitForText('no processes');
    await app.press('?');
    await app.waitForText('Keys — Processes');
    await app.waitForText(/1-\d+ of \d+/);
    expect(app.frame()).not.toContain('ctrl-c');
    await app.press(KEYS.end);
    await app.waitForText('ctrl-c');
    expect(app.frame()).not.toContain('Keys — Processes');
    await app.press(KEYS.home);
    await app.waitForText('Keys — Processes');
    const seen = new Set<string>();
    for (let step = 0; step < 10; step++) {
      for (const line of app.frame().split('\n')) seen.add(line);
      await app.press(KEYS.pageDown);
    }
    const all = [...seen].join('\n');
    for (const expected of [
      /pgup\s+ten processes up/,
      /g\/home\s+oldest output/,
      /G\/end\s+newest output, follow it/,
      /w\s+wrap long lines/,
      /n\s+next match/,
      /\+\/z\s+zoom/,
      /M\s+mouse capture/,
    ]) {
      expect(all).toMatch(expected);
    }
  });

  it('help fits a wide terminal: descriptions are not cut', async () => {
    const app = await renderApp(daemon.ports, {columns: 200, rows: 60});
    await app.waitForText('no processes');
    await app.press('?');
    await app.waitForText('zoom the pane to full screen and back (z too where the pane has no z of its own)');
    await app.waitForText('read the output: scroll, search, wrap (esc back to the list)');
    expect(app.frame()).not.toMatch(/1-\d+ of/);
  });

  it('M turns mouse capture off and on, and the status bar says when it is off', async () => {
    const changes: boolean[] = [];
    const app = await renderApp(daemon.ports, undefined, {mouseCapture: true, onMouseCapture: (on) => changes.push(on)});
    await app.waitForText('no processes');
    expect(app.frame()).not.toContain('M mouse off');
    await app.press('M');
    await app.waitForText('M mouse off');
    await app.press('M');
    await app.waitFor((frame) => !frame.includes('M mouse off'), 'mouse back on');
    expect(changes).toEqual([false, true]);
  });
});
