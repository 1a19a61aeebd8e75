import {afterEach, describe, expect, it} from 'vitest';
import {cleanup} from 'ink-testing-library';
import {WorkbenchError} from '../../../source/core/errors.js';
import {MemoryBackend} from './memoryBackend.js';
import {KEYS, renderApp} from './renderApp.js';

afterEach(() => {
  cleanup();
});

const processRow = (frame: string, id: string) => frame.split('\n').find(line => new RegExp(`[▸ ] ${id}\\s+(running|crashed|exited|stopped|starting)`).test(line));

describe('TUI shell', () => {
  it('shows the processes with status, pid and output, and the incidents newest first', async () => {
    const app = await renderApp(new MemoryBackend());
    await app.waitForText('ready on http://localhost:3000');
    await app.waitForText('TypeError');
    const frame = app.frame();

    expect(frame).toContain('1 Processes');
    expect(frame).toContain('2 Incidents');
    expect(processRow(frame, 'web')).toMatch(/web\s+running\s+4242\s+1m0\ds/);
    expect(processRow(frame, 'worker')).toMatch(/worker\s+crashed/);
    expect(processRow(frame, 'build')).toMatch(/build\s+exited 0/);
    // Newest first: the 5 s old TypeError, then the 1 min ReferenceError, then the 2 min 404.
    const order = ['TypeError', 'ReferenceError', '404 Not Found'].map(text => frame.indexOf(text));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(frame).toMatch(/3x\s+process:worker/);
    // Status bar: state from describe(), counts, next keys.
    await app.waitForText('daemon up · demo');
    expect(app.frame()).toMatch(/1 running · 2 errors · 1 warnings/);
    expect(app.frame()).toContain('? help');
  });

  it('draws output lines as the terminal would: last rewrite of a line, no cursor escapes, colours kept, long lines cut', async () => {
    const app = await renderApp(new MemoryBackend());
    await app.waitForText('ready on http://localhost:3000');
    const frame = app.frame();
    expect(frame).toContain('building done');
    expect(frame).not.toContain('building 55%');
    expect(frame).not.toContain('window title');
    expect(frame).not.toMatch(/\[2K|\]0;/);
    expect(frame).not.toContain('END-OF-LONG-LINE');
    // The frame fits the terminal exactly: nothing wrapped onto extra rows.
    const lines = frame.split('\n');
    expect(lines.length).toBeLessThanOrEqual(40);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(120);
    const compiledLine = (app.lastFrame() ?? '').split('\n').find(line => line.includes('compiled'));
    expect(compiledLine).toMatch(/\u001b\[32m✓ compiled/);
  });

  it('moves focus with Tab, Shift-Tab and number keys, and ? shows the focused pane’s keys', async () => {
    const app = await renderApp(new MemoryBackend());
    await app.waitForText('TypeError');
    const helpTitle = async () => {
      await app.press('?');
      await app.waitForText('Keys —');
      const title = /Keys — (\w+)/.exec(app.frame())?.[1];
      await app.press(KEYS.escape);
      await app.waitFor(frame => !frame.includes('Keys —'), 'help closed');
      return title;
    };

    expect(await helpTitle()).toBe('Processes');
    await app.press(KEYS.tab);
    expect(await helpTitle()).toBe('Incidents');
    await app.press(KEYS.shiftTab);
    expect(await helpTitle()).toBe('Processes');
    await app.press('2');
    expect(await helpTitle()).toBe('Incidents');
    await app.press('1');
    expect(await helpTitle()).toBe('Processes');
  });

  it('help lists the focused pane’s keys and the global ones; q closes it instead of quitting', async () => {
    const app = await renderApp(new MemoryBackend());
    await app.waitForText('web');
    await app.press('?');
    await app.waitForText('Keys — Processes');
    const frame = app.frame();
    expect(frame).toMatch(/s\s+start a script/);
    expect(frame).toMatch(/x\s+stop the selected process/);
    expect(frame).toMatch(/tab\s+next pane/);
    await app.press('q');
    await app.waitFor(current => !current.includes('Keys —'), 'help closed');
    expect(app.onQuit).not.toHaveBeenCalled();
  });

  it('/ filters the process list by id or command; q types into the filter; Esc clears it', async () => {
    const app = await renderApp(new MemoryBackend());
    await app.waitForText('ready on');
    await app.press('/', 'w', 'o', 'r', 'k');
    await app.waitFor(frame => !processRow(frame, 'web') && processRow(frame, 'worker') !== undefined, 'filtered list');
    expect(processRow(app.frame(), 'build')).toBeUndefined();

    await app.press(KEYS.enter);
    await app.waitForText('filter: work');
    await app.press('/', 'q');
    await app.waitForText('/workq');
    expect(app.onQuit).not.toHaveBeenCalled();
    await app.waitForText('no process matches the filter');

    await app.press(KEYS.escape);
    await app.waitFor(frame => processRow(frame, 'web') !== undefined && processRow(frame, 'build') !== undefined, 'full list back');
    // Filtering by command text too.
    await app.press('/', 't', 's', 'c', KEYS.enter);
    await app.waitFor(frame => processRow(frame, 'build') !== undefined && !processRow(frame, 'web'), 'filtered by command');
  });

  it('Enter expands an incident to its full message, location and page; Esc collapses it', async () => {
    const app = await renderApp(new MemoryBackend());
    await app.waitForText('TypeError');
    await app.press('2');
    expect(app.frame()).not.toContain('job 17 of queue imports');
    await app.press(KEYS.enter);
    await app.waitForText('while handling job 17 of queue imports');
    expect(app.frame()).toMatch(/location\s+\/work\/demo\/worker\.js:12:7/);
    expect(app.frame()).toMatch(/source\s+process:worker/);

    await app.press(KEYS.escape, 'j', KEYS.enter);
    await app.waitForText('chart is not defined');
    expect(app.frame()).toMatch(/page\s+http:\/\/localhost:3000\/dashboard/);
    await app.press(KEYS.escape);
    await app.waitFor(frame => !/location\s+http/.test(frame) && frame.includes('404 Not Found'), 'list back');
  });

  it('/ in the incidents pane filters by text', async () => {
    const app = await renderApp(new MemoryBackend());
    await app.waitForText('TypeError');
    await app.press(KEYS.tab, '/', 'c', 'h', 'a', 'r', 't', KEYS.enter);
    await app.waitFor(frame => frame.includes('ReferenceError') && !frame.includes('404 Not Found') && !/✖\s+\S+\s+3x/.test(frame), 'filtered incidents');
  });

  it('x stops and r restarts the selected process', async () => {
    const backend = new MemoryBackend();
    const app = await renderApp(backend);
    await app.waitForText('ready on');
    await app.press('j');
    await app.waitForText('worker starting');
    await app.press('x');
    await app.waitForText('stopped worker');
    await app.press('r');
    await app.waitForText('restarted worker');
    expect(backend.calls).toEqual([
      {method: 'stop', argument: 'worker'},
      {method: 'restart', argument: 'worker'},
    ]);
    await app.waitFor(frame => /worker\s+running\s+6000/.test(frame), 'restarted row');
  });

  it('s opens the script picker and Enter starts the chosen script', async () => {
    const backend = new MemoryBackend();
    const app = await renderApp(backend);
    await app.waitForText('ready on');
    await app.press('s');
    await app.waitForText('Start a script');
    await app.waitForText('vitest run');
    await app.press('j', KEYS.enter);
    await app.waitForText('started test');
    expect(backend.calls).toEqual([
      {method: 'scripts', argument: undefined},
      {method: 'start', argument: {scriptName: 'test'}},
    ]);
    // The new process is selected and its output shown.
    await app.waitForText('RUN  v4.1.0');
  });

  it('q closes the script picker without quitting', async () => {
    const backend = new MemoryBackend();
    const app = await renderApp(backend);
    await app.waitForText('ready on');
    await app.press('s');
    await app.waitForText('Start a script');
    await app.press('q');
    await app.waitFor(frame => !frame.includes('Start a script'), 'picker closed');
    expect(app.onQuit).not.toHaveBeenCalled();
    expect(backend.calls.filter(call => call.method === 'start')).toEqual([]);
  });

  it('shows backend failures as one line and keeps running', async () => {
    const backend = new MemoryBackend({
      listProcesses: new WorkbenchError('daemon_not_connected', 'daemon not connected: connect ENOENT /tmp/wb.sock'),
      getErrors: new Error('socket closed\n    at Socket.read (node:net:1:1)'),
    });
    const app = await renderApp(backend);
    await app.waitForText('daemon not connected: connect ENOENT /tmp/wb.sock');
    await app.waitForText('socket closed');
    expect(app.frame()).not.toContain('node:net');
    // Once the daemon answers again, the list comes back.
    backend.failing = {};
    await app.waitForText('ready on');
    await app.waitFor(frame => !frame.includes('daemon not connected'), 'error line gone');
  });

  it('a failed action says so in the pane', async () => {
    const backend = new MemoryBackend({stop: new WorkbenchError('not_found', 'no process web')});
    const app = await renderApp(backend);
    await app.waitForText('ready on');
    await app.press('x');
    await app.waitForText('stop web failed: no process web');
    expect(processRow(app.frame(), 'web')).toMatch(/running/);
  });

  it('q quits, and so does Ctrl-C from inside the filter', async () => {
    const app = await renderApp(new MemoryBackend());
    await app.waitForText('web');
    await app.press('q');
    expect(app.onQuit).toHaveBeenCalledTimes(1);

    const other = await renderApp(new MemoryBackend());
    await other.waitForText('web');
    await other.press('/', 'a', KEYS.ctrlC);
    expect(other.onQuit).toHaveBeenCalledTimes(1);
  });

  it('switches to a compact single-pane layout below 80x24 and back on resize', async () => {
    const app = await renderApp(new MemoryBackend());
    await app.waitForText('TypeError');
    expect(app.frame()).toContain('╭');

    app.resize({columns: 60, rows: 20});
    await app.waitFor(frame => !frame.includes('╭') && !frame.includes('TypeError'), 'compact processes');
    let frame = app.frame();
    expect(processRow(frame, 'web')).toBeDefined();
    expect(frame).toMatch(/1 run 2 err/);
    expect(frame.split('\n').length).toBeLessThanOrEqual(20);
    for (const line of frame.split('\n')) expect([...line].length).toBeLessThanOrEqual(60);

    // The help still fits, global keys included.
    await app.press('?');
    await app.waitForText('Keys — Processes');
    expect(app.frame()).toMatch(/ctrl-c\s+quit/);
    await app.press(KEYS.escape);
    await app.waitFor(current => !current.includes('Keys —'), 'help closed');

    await app.press(KEYS.tab);
    await app.waitFor(current => current.includes('TypeError') && !processRow(current, 'web'), 'compact incidents');
    frame = app.frame();
    expect(frame.split('\n').length).toBeLessThanOrEqual(20);

    app.resize({columns: 120, rows: 40});
    await app.waitFor(current => current.includes('╭') && current.includes('TypeError') && processRow(current, 'web') !== undefined, 'full layout back');
  });

  it('keeps a pane’s filter while another pane has the compact screen', async () => {
    const app = await renderApp(new MemoryBackend(), {columns: 70, rows: 20});
    await app.waitForText('web');
    await app.press('/', 'b', 'u', KEYS.enter);
    await app.waitFor(frame => processRow(frame, 'build') !== undefined && !processRow(frame, 'web'), 'filtered');
    await app.press('2');
    await app.waitForText('TypeError');
    await app.press('1');
    await app.waitForText('filter: bu');
    expect(processRow(app.frame(), 'web')).toBeUndefined();
  });
});
