import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {cleanup} from 'ink-testing-library';
import {formatErrorsCompact} from '../../../source/incidents/index.js';
import type {UnifiedError} from '../../../source/incidents/types.js';
import {getErrors} from '../../../source/tools/get-errors.js';
import {procTask} from '../../../source/tools/proc.js';
import {startInProcessDaemon, type InProcessDaemon} from './daemonHarness.js';
import {KEYS, renderApp, type Size} from './renderApp.js';

// The shell and its Processes and Incidents panes against the real daemon (in this process, real
// ptys): what they show is what `workbench proc list` and `workbench get-errors` answer.

let daemon: InProcessDaemon;

beforeEach(async () => {
  daemon = await startInProcessDaemon();
});

afterEach(async () => {
  cleanup();
  vi.useRealTimers();
  await daemon.close();
});

const processRow = (frame: string, id: string) => frame.split('\n').find((line) => new RegExp(`[▸ ] ${id}\\s+(running|crashed|exited|stopped|starting)`).test(line));

async function processes() {
  const result = await procTask({action: 'list'}, daemon.context);
  return result.action === 'list' ? result.processes : [];
}

/** `get-errors --limit 200` as the CLI and MCP ask for it. */
const inbox = () => getErrors({limit: 200, include_warnings: true}, daemon.context);

async function waitForInbox(predicate: (errors: UnifiedError[]) => boolean): Promise<UnifiedError[]> {
  return vi.waitFor(
    async () => {
      const errors = await inbox();
      if (!predicate(errors)) throw new Error(`inbox not there yet: ${JSON.stringify(errors)}`);
      return errors;
    },
    {timeout: 10_000, interval: 25},
  );
}

/** A dev server that keeps running, a worker that crashes with a TypeError, a build that exits 0. */
async function startSample(): Promise<void> {
  await daemon.run('node web.mjs', 'web');
  // exec: the signal ends the process the pty started, not a shell that would report exit 137.
  await daemon.run('exec node worker.mjs', 'worker');
  await daemon.run('node build.mjs', 'build');
  await vi.waitFor(
    async () => {
      const list = await processes();
      const status = (id: string) => list.find((process) => process.id === id)?.status;
      if (status('worker') !== 'crashed' || status('build') !== 'exited') throw new Error(`not settled: ${JSON.stringify(list)}`);
    },
    {timeout: 10_000, interval: 25},
  );
  await waitForInbox((errors) => errors.some((entry) => entry.category === 'TypeError'));
}

async function renderSample(size?: Size) {
  await startSample();
  const app = await renderApp(daemon.ports, size);
  await app.waitForText('ready on http://localhost:3000');
  // A compact screen shows one pane: the incidents are not on it.
  if (!size) await app.waitForText('TypeError');
  return app;
}

describe('TUI shell on the real daemon', () => {
  it('shows the processes with status, pid and output, and the status bar counts the inbox', async () => {
    const app = await renderSample();
    const frame = app.frame();
    expect(frame).toContain('1 Processes');
    expect(frame).toContain('2 Incidents');
    const web = (await processes()).find((process) => process.id === 'web')!;
    expect(processRow(frame, 'web')).toMatch(new RegExp(`web\\s+running\\s+${web.pid}\\s+\\d+s`));
    expect(processRow(frame, 'worker')).toMatch(/worker\s+crashed/);
    expect(processRow(frame, 'build')).toMatch(/build\s+exited 0/);

    // The status bar: the daemon's own pid (it runs in this process) and the project, then counts.
    await app.waitForText(`daemon pid ${process.pid} · demo`);
    const errors = await inbox();
    const count = (severity: string) => errors.filter((entry) => entry.severity === severity).length;
    await app.waitForText(`1 running · ${count('error')} errors · ${count('warning')} warnings`);
    expect(app.frame()).toContain('? help');
  });

  it('draws output lines as the terminal would: last rewrite of a line, no cursor escapes, colours kept, long lines cut', async () => {
    const app = await renderSample();
    await app.waitForText('building done');
    const frame = app.frame();
    expect(frame).not.toContain('building 55%');
    expect(frame).not.toContain('window title');
    expect(frame).not.toMatch(/\[2K|\]0;/);
    expect(frame).not.toContain('END-OF-LONG-LINE');
    // The frame fits the terminal exactly: nothing wrapped onto extra rows.
    const lines = frame.split('\n');
    expect(lines.length).toBeLessThanOrEqual(40);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(120);
    const compiledLine = (app.lastFrame() ?? '').split('\n').find((line) => line.includes('compiled'));
    expect(compiledLine).toMatch(/\u001b\[32m✓ compiled/);
  });

  it('lists the incidents get-errors lists, in its order (errors first, then newest), with its ages', async () => {
    // An older error, then a newer warning, then the newest error: errors first puts the warning last.
    await daemon.run(`node -e "console.error('ReferenceError: chart is not defined\\n    at draw (/work/demo/chart.js:88:3)'); setInterval(() => {}, 1000)"`, 'charts');
    await waitForInbox((errors) => errors.some((entry) => entry.category === 'ReferenceError'));
    await daemon.run(`node -e "console.log(\\"lib.c:12:5: warning: unused variable 'x'\\"); setInterval(() => {}, 1000)"`, 'cc');
    await waitForInbox((errors) => errors.some((entry) => entry.severity === 'warning'));
    await daemon.run('exec node worker.mjs', 'worker');
    const errors = await waitForInbox((list) => list.some((entry) => entry.category === 'TypeError') && list.some((entry) => entry.category === 'crashed'));
    expect(errors.map((entry) => entry.severity)).toEqual(['error', 'error', 'error', 'warning']);

    const app = await renderApp(daemon.ports);
    await app.press('2');
    await app.waitForText('compile warning');
    const rows = app
      .frame()
      .split('\n')
      .filter((line) => /[✖▲]/.test(line));
    const shown = rows.map((row) => errors.findIndex((entry) => row.includes(entry.source) && row.includes(entry.category)));
    expect(shown).toEqual([0, 1, 2, 3]);

    // Two minutes on, the ages read as get-errors prints them: `2m`, not `2m05s`.
    vi.useFakeTimers({toFake: ['Date']});
    // 130 s: the pane counts ages from the wall clock's last ten seconds (text/age.ts), so at least 120 s.
    vi.setSystemTime(Date.now() + 130_000);
    await app.waitFor((frame) => /✖\s+2m\s+1x\s+process:charts/.test(frame), 'ages of two minutes');
    expect(formatErrorsCompact(await inbox())).toContain('[process:charts] ReferenceError (1x, 2m ago)');
    await app.press('j', 'j', KEYS.enter);
    await app.waitForText('chart is not defined');
    expect(app.frame()).toMatch(/1x · last seen 2m ago/);
    expect(app.frame()).toMatch(/location\s+\/work\/demo\/chart\.js:88:3/);
  });

  it('moves focus with Tab, Shift-Tab and number keys, and ? shows the focused pane’s keys', async () => {
    const app = await renderApp(daemon.ports);
    await app.waitForText('no processes · s starts a script');
    const helpTitle = async () => {
      await app.press('?');
      await app.waitForText('Keys —');
      const title = /Keys — (\w+)/.exec(app.frame())?.[1];
      await app.press(KEYS.escape);
      await app.waitFor((frame) => !frame.includes('Keys —'), 'help closed');
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
    const app = await renderApp(daemon.ports);
    await app.waitForText('no processes');
    await app.press('?');
    await app.waitForText('Keys — Processes');
    const frame = app.frame();
    expect(frame).toMatch(/s\s+start a script/);
    expect(frame).toMatch(/x\s+stop the selected process/);
    // The global keys close the help, below the pane's own: End scrolls to them.
    await app.press(KEYS.end);
    await app.waitForText(/tab\s+next pane/);
    await app.press('q');
    await app.waitFor((current) => !current.includes('Keys —'), 'help closed');
    expect(app.onQuit).not.toHaveBeenCalled();
  });

  it('/ filters the process list by id or command; q types into the filter; Esc clears it', async () => {
    const app = await renderSample();
    await app.press('/', 'w', 'o', 'r', 'k');
    await app.waitFor((frame) => !processRow(frame, 'web') && processRow(frame, 'worker') !== undefined, 'filtered list');
    expect(processRow(app.frame(), 'build')).toBeUndefined();

    await app.press(KEYS.enter);
    await app.waitForText('filter: work');
    await app.press('/', 'q');
    await app.waitForText('/workq');
    expect(app.onQuit).not.toHaveBeenCalled();
    await app.waitForText('no process matches the filter');

    await app.press(KEYS.escape);
    await app.waitFor((frame) => processRow(frame, 'web') !== undefined && processRow(frame, 'build') !== undefined, 'full list back');
    // Filtering by command text too.
    // The text and Enter in one read (a paste, fast typing): every character is kept.
    await app.press('/', 'build.mjs\r');
    await app.waitForText('filter: build.mjs');
    await app.waitFor((frame) => processRow(frame, 'build') !== undefined && !processRow(frame, 'web'), 'filtered by command');
  });

  it('Enter expands an incident to its full message, location and source; Esc collapses it', async () => {
    const app = await renderSample();
    await app.press('2');
    const errors = await inbox();
    const typeError = errors.find((entry) => entry.category === 'TypeError')!;
    // The rows are in before j moves through them (answers are gathered for a few ms before a frame).
    await app.waitFor((frame) => /✖.*TypeError/.test(frame), 'incident rows');
    // Select the TypeError row, wherever the inbox put it.
    for (let index = 0; index < errors.indexOf(typeError); index++) await app.press('j');
    await app.press(KEYS.enter);
    await app.waitForText("Cannot read properties of undefined (reading 'id')");
    expect(app.frame()).toMatch(/location\s+\/work\/demo\/worker\.js:12:7/);
    expect(app.frame()).toMatch(/source\s+process:worker/);
    await app.press(KEYS.escape);
    await app.waitFor((frame) => !/location\s+\/work/.test(frame) && /✖.*process:worker/.test(frame), 'list back');
  });

  it('/ in the incidents pane filters by text', async () => {
    const app = await renderSample();
    await app.press(KEYS.tab, '/', 'reading\r');
    await app.waitForText('filter: reading');
    await app.waitFor((frame) => /✖.*TypeError/.test(frame) && !/✖.*crashed/.test(frame), 'filtered incidents');
  });

  it('x stops and r restarts the selected process, in the daemon', async () => {
    const app = await renderSample();
    const before = (await processes()).find((process) => process.id === 'web')!;
    await app.press('x');
    await app.waitForText('stopped web');
    await app.waitFor((frame) => /web\s+stopped/.test(frame), 'stopped row');
    expect((await processes()).find((process) => process.id === 'web')?.status).toBe('stopped');

    await app.press('r');
    await app.waitForText('restarted web');
    const after = (await processes()).find((process) => process.id === 'web')!;
    expect(after).toMatchObject({status: 'running', restarts: before.restarts + 1});
    await app.waitFor((frame) => new RegExp(`web\\s+running\\s+${after.pid}`).test(frame), 'restarted row');
  });

  it('s opens the project’s scripts and Enter starts the chosen one, as `workbench run <script>` does', async () => {
    const app = await renderApp(daemon.ports);
    await app.waitForText('no processes');
    await app.press('s');
    await app.waitForText('Start a script');
    await app.waitForText(/test\s+npm run test\s+\(package\.json\)/);
    await app.press('j');
    await app.waitForText('▸ test');
    await app.press(KEYS.enter);
    await app.waitForText('started test');
    // The new process is selected, running, and its output shown.
    await app.waitFor((frame) => /▸ test\s+running/.test(frame), 'test running');
    await app.waitForText('RUN  v4.1.0', 15_000);
    const started = (await processes()).find((process) => process.id === 'test');
    expect(started).toMatchObject({status: 'running', scriptName: 'test', command: 'npm run test', cwd: daemon.project});
  });

  it('starting a script that already runs says why in one line', async () => {
    const app = await renderApp(daemon.ports);
    await app.waitForText('no processes');
    // The picker's row, not the command the output view shows.
    const pickerRow = /▸ dev\s+npm run dev\s+\(package\.json\)/;
    await app.press('s');
    await app.waitForText(pickerRow);
    await app.press(KEYS.enter);
    await app.waitFor((frame) => /dev\s+running/.test(frame), 'dev running');
    await app.press('s');
    await app.waitForText(pickerRow);
    await app.press(KEYS.enter);
    await app.waitForText(/start dev failed: process "dev" is already running \(pid \d+\); stop or restart it/);
    expect((await processes()).map((process) => process.id)).toEqual(['dev']);
  });

  it('q closes the script picker without quitting or starting anything', async () => {
    const app = await renderApp(daemon.ports);
    await app.waitForText('no processes');
    await app.press('s');
    await app.waitForText(/▸ dev\s+npm run dev\s+\(package\.json\)/);
    await app.press('q');
    await app.waitFor((frame) => !frame.includes('Start a script'), 'picker closed');
    expect(app.onQuit).not.toHaveBeenCalled();
    expect(await processes()).toEqual([]);
  });

  it('shows a daemon that went away as one line, keeps running, and recovers when it is back', async () => {
    const app = await renderSample();
    await daemon.takeDown();
    await app.waitForText('daemon not connected');
    const frame = app.frame();
    expect(frame).not.toMatch(/\n\s+at .+:\d+:\d+/);
    // What was shown stays.
    expect(processRow(frame, 'web')).toBeDefined();

    await daemon.bringBack();
    await app.waitFor((current) => !current.includes('daemon not connected') && current.includes(`daemon pid ${process.pid}`), 'daemon back');
    expect(processRow(app.frame(), 'web')).toMatch(/running/);
  });

  it('q quits, and so does Ctrl-C from inside the filter', async () => {
    const app = await renderApp(daemon.ports);
    await app.waitForText('no processes');
    await app.press('q');
    expect(app.onQuit).toHaveBeenCalledTimes(1);

    const other = await renderApp(daemon.ports);
    await other.waitForText('no processes');
    await other.press('/', 'a', KEYS.ctrlC);
    expect(other.onQuit).toHaveBeenCalledTimes(1);
  });

  it('switches to a compact single-pane layout below 80x24 and back on resize', async () => {
    const app = await renderSample();
    expect(app.frame()).toContain('╭');

    app.resize({columns: 60, rows: 20});
    await app.waitFor((frame) => !frame.includes('╭') && !frame.includes('TypeError'), 'compact processes');
    let frame = app.frame();
    expect(processRow(frame, 'web')).toBeDefined();
    expect(frame).toMatch(/1 run \d+ err/);
    expect(frame.split('\n').length).toBeLessThanOrEqual(20);
    for (const line of frame.split('\n')) expect([...line].length).toBeLessThanOrEqual(60);

    // The help fits: taller than the screen, it scrolls to the global keys.
    await app.press('?');
    await app.waitForText('Keys — Processes');
    await app.press(KEYS.end);
    await app.waitForText(/ctrl-c\s+quit/);
    await app.press(KEYS.escape);
    await app.waitFor((current) => !current.includes('esc closes'), 'help closed');

    await app.press(KEYS.tab);
    await app.waitFor((current) => current.includes('TypeError') && !processRow(current, 'web'), 'compact incidents');
    frame = app.frame();
    expect(frame.split('\n').length).toBeLessThanOrEqual(20);

    app.resize({columns: 120, rows: 40});
    await app.waitFor((current) => current.includes('╭') && current.includes('TypeError') && processRow(current, 'web') !== undefined, 'full layout back');
  });

  it('keeps a pane’s filter while another pane has the compact screen', async () => {
    const app = await renderSample({columns: 70, rows: 20});
    await app.press('/', 'b', 'u', KEYS.enter);
    await app.waitFor((frame) => processRow(frame, 'build') !== undefined && !processRow(frame, 'web'), 'filtered');
    await app.press('2');
    await app.waitForText('TypeError');
    await app.press('1');
    await app.waitForText('filter: bu');
    expect(processRow(app.frame(), 'web')).toBeUndefined();
  });
});
