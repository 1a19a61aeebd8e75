import {chmodSync, existsSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {cleanup} from 'ink-testing-library';
import type {Incident} from '../../../source/incidents/incidents.js';
import {getIncidents} from '../../../source/tools/get-incidents.js';
import {startInProcessDaemon, type InProcessDaemon} from './daemonHarness.js';
import {KEYS, renderApp} from './renderApp.js';
import {selectIncidentRow} from './selectIncidentRow.js';

// The Incidents pane against the real daemon: it lists what `workbench get-incidents` answers
// (near-duplicates grouped), opens an incident to its stack and the output around it, hands the
// terminal to $EDITOR, keeps a crash across a restart, sorts, and never hides new items above.

let daemon: InProcessDaemon;

beforeEach(async () => {
  daemon = await startInProcessDaemon();
});

// The ports close before the environment is put back: a Feeds poll after it would open the
// reader in the real home.
afterEach(async () => {
  cleanup();
  await daemon.ports.close();
  await daemon.close();
  vi.unstubAllEnvs();
});

async function waitForIncidents(predicate: (incidents: Incident[]) => boolean): Promise<Incident[]> {
  return vi.waitFor(
    async () => {
      const {incidents} = await getIncidents({limit: 10_000}, daemon.context);
      if (!predicate(incidents)) throw new Error(`inbox not there yet: ${JSON.stringify(incidents)}`);
      return incidents;
    },
    {timeout: 10_000, interval: 25},
  );
}

/** The worker crashes with a TypeError and its stack (daemonHarness' worker.mjs). */
async function crashWorker(): Promise<Incident[]> {
  await daemon.run('exec node worker.mjs', 'worker');
  return waitForIncidents((list) => list.some((entry) => entry.category === 'TypeError') && list.some((entry) => entry.category === 'crashed'));
}

describe('Incidents pane', () => {
  it('groups near-duplicates as get-incidents does: one row with its count and variants; the title counts the incidents', async () => {
    writeFileSync(
      join(daemon.project, 'jobs.mjs'),
      `for (const n of [24, 48, 72]) { console.error('Error: job ' + n + ' failed'); console.log('queue continues'); await new Promise((done) => setTimeout(done, 30)); }
setInterval(() => {}, 1000);`,
    );
    await daemon.run('node jobs.mjs', 'jobs');
    const incidents = await waitForIncidents((list) => list.some((entry) => entry.source === 'process:jobs' && entry.count === 3));
    expect(incidents.filter((entry) => entry.source === 'process:jobs')).toHaveLength(1);

    const app = await renderApp(daemon.ports);
    await app.waitForText(`Incidents (${incidents.length})`);
    await app.press('2');
    await app.waitFor((frame) => /3x\s+process:jobs\s+Error\s+job 72 failed \(3 variants\)/.test(frame), 'one grouped row');
    expect(app.frame()).not.toMatch(/1x\s+process:jobs/);
    await app.press(KEYS.enter);
    await app.waitForText('variants (3): job 72 failed | job 48 failed | job 24 failed');
  });

  it('Enter shows the stack the scanner saw and the process output around the incident; ↓ scrolls it', async () => {
    await crashWorker();
    const app = await renderApp(daemon.ports, {columns: 120, rows: 60});
    await app.press('2');
    await app.waitForText('TypeError');
    await selectIncidentRow(app, /TypeError/);
    await app.press(KEYS.enter);
    await app.waitForText('Stack');
    expect(app.frame()).toContain('at run (/work/demo/worker.js:12:7)');
    await app.waitForText(/› TypeError: Cannot read properties of undefined/);
    const lines = app.frame().split('\n');
    const at = lines.findIndex((line) => /› TypeError: Cannot read properties of undefined/.test(line));
    expect(at).toBeGreaterThan(0);
    // The line printed before it, from the process's output ring.
    expect(lines.slice(0, at).some((line) => line.includes('worker starting'))).toBe(true);
    expect(app.frame()).toContain('e open /work/demo/worker.js:12:7 in $EDITOR');
    // On a shorter screen the detail does not fit: Down scrolls it (the header goes first), not the list.
    app.resize({columns: 120, rows: 30});
    await app.waitFor((frame) => !frame.includes('› TypeError'), 'detail cut by the shorter screen');
    await app.press('j', 'j', 'j', 'j', 'j');
    await app.waitFor((frame) => !frame.includes('e open /work/demo/worker.js') && frame.includes('› TypeError'), 'detail scrolled');
  });

  it('e opens the location in $EDITOR: +line file for vi-likes, file:line:col otherwise; without an editor it says where', async () => {
    await crashWorker();
    const record = join(daemon.dir, 'editor-args.txt');
    const editor = (name: string) => {
      const path = join(daemon.dir, name);
      writeFileSync(path, `#!/bin/sh\nprintf '%s\\n' "$@" > '${record}'\n`);
      chmodSync(path, 0o755);
      return path;
    };
    vi.stubEnv('VISUAL', '');
    vi.stubEnv('EDITOR', editor('vim'));
    const app = await renderApp(daemon.ports);
    await app.press('2');
    await app.waitForText('TypeError');
    await selectIncidentRow(app, /TypeError/);
    await app.press('e');
    await app.waitForText('/work/demo/worker.js:12:7 opened in');
    expect(readFileSync(record, 'utf8')).toBe('+12\n/work/demo/worker.js\n');

    vi.stubEnv('EDITOR', `${editor('myeditor')} --wait`);
    await app.press('e');
    // The editor is a program the TUI starts: longer than vi.waitFor's default second when loaded.
    await vi.waitFor(() => expect(readFileSync(record, 'utf8')).toBe('--wait\n/work/demo/worker.js:12:7\n'), {timeout: 15_000});

    vi.stubEnv('EDITOR', '');
    await app.press('e');
    await app.waitForText('no $EDITOR set: /work/demo/worker.js:12:7');
    expect(existsSync(record)).toBe(true);
  });

  it('keeps the crash across a restart of its process, marked with the run it came from', async () => {
    await crashWorker();
    const app = await renderApp(daemon.ports);
    await app.press('2');
    await app.waitFor((frame) => /process:worker\s+crashed/.test(frame), 'the crash');
    // Started again under the same id: this run keeps going.
    writeFileSync(join(daemon.project, 'worker.mjs'), `console.log('worker fine'); setInterval(() => {}, 1000);`);
    await daemon.run('exec node worker.mjs', 'worker');
    await waitForIncidents((list) => list.some((entry) => entry.category === 'crashed' && entry.run === 1));
    await app.waitFor((frame) => /process:worker\s+crashed\s+run 1 process killed by SIGKILL/.test(frame), 'crash marked run 1');
    expect(app.frame()).toMatch(/process:worker\s+TypeError\s+run 1 /);
  });

  it('o cycles the sort: errors first, newest, count, source', async () => {
    writeFileSync(join(daemon.project, 'many.mjs'), `for (let i = 0; i < 4; i++) console.error('Error: disk full'); setInterval(() => {}, 1000);`);
    await daemon.run('node many.mjs', 'many');
    await waitForIncidents((list) => list.some((entry) => entry.source === 'process:many' && entry.count === 4));
    await crashWorker();
    const app = await renderApp(daemon.ports);
    await app.press('2');
    await app.waitForText('disk full');
    const firstRow = () =>
      app
        .frame()
        .split('\n')
        .find((line) => /[✖▲]/.test(line)) ?? '';
    expect(firstRow()).not.toContain('disk full');
    await app.press('o');
    await app.waitForText('sorted by newest · o to change');
    await app.press('o');
    await app.waitForText('sorted by count · o to change');
    expect(firstRow()).toMatch(/4x\s+process:many\s+Error\s+disk full/);
    await app.press('o');
    await app.waitForText('sorted by source · o to change');
    expect(firstRow()).toContain('process:many');
    await app.press('o');
    await app.waitFor((frame) => !frame.includes('sorted by'), 'back to the inbox order');
  });

  it('says how many new incidents arrived above the visible rows (↑ N new), until they are scrolled into view', async () => {
    const words = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango'.split(' ');
    writeFileSync(join(daemon.project, 'words.mjs'), `for (const word of ${JSON.stringify(words)}) console.error('Error: broken ' + word); setInterval(() => {}, 1000);`);
    await daemon.run('node words.mjs', 'words');
    await waitForIncidents((list) => list.filter((entry) => entry.source === 'process:words').length === words.length);
    const app = await renderApp(daemon.ports, {columns: 100, rows: 24});
    await app.press('2');
    await app.waitForText('broken');
    for (let step = 0; step < words.length; step++) await app.press('j');
    await app.waitFor((frame) => frame.includes('▸') && !frame.includes('↑'), 'scrolled down, nothing new');

    await daemon.run(`node -e "console.error('Error: brand new trouble'); setInterval(() => {}, 1000)"`, 'fresh');
    await app.waitForText('Incidents (21)');
    await app.waitForText('↑ 1 new');
    expect(app.frame()).not.toContain('brand new trouble');
    for (let step = 0; step < words.length + 2; step++) await app.press('k');
    await app.waitFor((frame) => frame.includes('brand new trouble') && !frame.includes('↑ 1 new'), 'new item in view, marker gone');
  });
});
