import {existsSync} from 'node:fs';
import {createServer} from 'node:net';
import type {AddressInfo} from 'node:net';
import {join} from 'node:path';
import {afterEach, describe, expect, it, vi} from 'vitest';
import {cleanup} from 'ink-testing-library';
import {daemonPidPath} from '../../../source/core/paths.js';
import {ensureDaemon} from '../../../source/daemon/lifecycle.js';
import {announceService} from '../../../source/services/registry.js';
import {startReaderServer, type ReaderServer} from '../../../servers/reader/index.js';
import {firstFreePort} from '../../../source/cli/ensure-reader.js';
import {createFeedsPort} from '../../../source/tui/ports/feeds.js';
import {createPorts} from '../../../source/tui/ports/index.js';
import {createTuiContext, DAEMON_STOPPED} from '../../../source/tui/ports/tuiContext.js';
import {PROCESSES_GONE, processesPane} from '../../../source/tui/panes/processes.js';
import {INCIDENTS_GONE, incidentsPane} from '../../../source/tui/panes/incidents.js';
import {startInProcessDaemon, type InProcessDaemon} from './daemonHarness.js';
import {renderApp} from './renderApp.js';

let daemon: InProcessDaemon | undefined;
const readers: ReaderServer[] = [];

afterEach(async () => {
  cleanup();
  for (const reader of readers.splice(0)) await reader.close().catch(() => undefined);
  await daemon?.close();
  daemon = undefined;
});

/** A reader server on a free port, announced in the registry as `workbench serve reader` does. */
async function startAnnouncedReader(db: string): Promise<ReaderServer> {
  const server = await startReaderServer({port: 0, db, poll: false});
  readers.push(server);
  announceService({name: 'reader', url: server.url, health: `${server.url}/api/v1/health`});
  return server;
}

// Connection attempts of the ports' watches after the daemon went away (each watch retries every
// 20 ms): what "still stopped after a while" is counted in.
const RETRIES = 60;

describe('the TUI stays connected', () => {
  it('a daemon stopped under the TUI stays stopped: the status bar says so, and r starts it again', async () => {
    daemon = await startInProcessDaemon();
    const harness = daemon;
    let starts = 0;
    let tries = 0;
    const context = createTuiContext({
      cwd: harness.project,
      // Autostart means "bring the daemon back" here, in this process, instead of spawning dist/.
      ensure: async ({autostart}) => {
        tries++;
        if (autostart && starts++ > 0) await harness.bringBack();
        return ensureDaemon({autostart: false});
      },
    });
    const ports = createPorts(context, {retryMs: 20, startDaemon: async () => void (await context.startDaemon())});
    const app = await renderApp(ports, {columns: 120, rows: 30}, {panes: [processesPane]});
    await app.waitForText(/daemon pid \d+ · demo/);
    await harness.takeDown();
    await app.waitForText(DAEMON_STOPPED);
    // Still stopped after many retries (counted, not waited out): nothing started a daemon (no pid
    // file, no socket listener).
    const triedBefore = tries;
    await vi.waitFor(() => expect(tries - triedBefore).toBeGreaterThanOrEqual(RETRIES), {timeout: 15_000, interval: 10});
    expect(app.frame()).toContain(DAEMON_STOPPED);
    expect(existsSync(daemonPidPath(harness.home))).toBe(false);
    await expect(context.daemon()).rejects.toThrow(DAEMON_STOPPED);
    expect(starts).toBe(1);

    await app.press('r');
    await app.waitForText(/daemon pid \d+ · demo/);
    expect(starts).toBe(2);
    expect(app.frame()).not.toContain(DAEMON_STOPPED);
    context.close();
  });

  it('the Processes pane does not list the processes of a stopped daemon as running; after r it lists what the new daemon has', async () => {
    daemon = await startInProcessDaemon();
    const harness = daemon;
    let starts = 0;
    const context = createTuiContext({
      cwd: harness.project,
      ensure: async ({autostart}) => {
        if (autostart && starts++ > 0) await harness.bringBack();
        return ensureDaemon({autostart: false});
      },
    });
    const ports = createPorts(context, {retryMs: 20, startDaemon: async () => void (await context.startDaemon())});
    await harness.run('node web.mjs', 'web');
    const app = await renderApp(ports, {columns: 120, rows: 30}, {panes: [processesPane]});
    await app.waitFor((frame) => /web\s+running/.test(frame), 'web running');

    // `workbench daemon stop`: the daemon stops its processes and goes away.
    await harness.supervisor.stopAll();
    await harness.takeDown();
    await app.waitFor((frame) => frame.includes(PROCESSES_GONE) && frame.includes('r start the daemon'), 'the stopped state');
    const stoppedFrame = app.frame();
    expect(stoppedFrame).toContain(DAEMON_STOPPED);
    // Neither the list nor the status bar counts web as running.
    expect(stoppedFrame).not.toMatch(/\bweb\b/);
    expect(stoppedFrame).toMatch(/- running · /);

    // The daemon that comes back has its own list: web as it ended, and what it started since.
    await app.press('r');
    await app.waitFor((frame) => /web\s+stopped/.test(frame), 'web stopped, from the new daemon');
    expect(app.frame()).not.toContain(PROCESSES_GONE);
    await harness.run('node tests.mjs', 'fresh');
    await app.waitFor((frame) => /fresh\s+running/.test(frame), 'fresh running');
    context.close();
  });

  it("the Incidents pane does not keep a stopped daemon's inbox; after r it lists the new daemon's", async () => {
    daemon = await startInProcessDaemon();
    const harness = daemon;
    let starts = 0;
    const context = createTuiContext({
      cwd: harness.project,
      ensure: async ({autostart}) => {
        if (autostart && starts++ > 0) await harness.bringBack();
        return ensureDaemon({autostart: false});
      },
    });
    const ports = createPorts(context, {retryMs: 20, startDaemon: async () => void (await context.startDaemon())});
    await harness.run('node worker.mjs', 'worker');
    const app = await renderApp(ports, {columns: 120, rows: 30}, {panes: [incidentsPane]});
    await app.waitForText("Cannot read properties of undefined (reading 'id')");

    await harness.supervisor.stopAll();
    await harness.takeDown();
    await app.waitFor((frame) => frame.includes(INCIDENTS_GONE), 'the stopped state');
    expect(app.frame()).not.toContain('Cannot read properties');
    expect(app.frame()).toMatch(/Incidents\s/);
    expect(app.frame()).not.toMatch(/Incidents \(\d+\)/);

    // The daemon that comes back (here the same supervisor, alerts and all) answers for itself.
    await app.press('r');
    await app.waitForText("Cannot read properties of undefined (reading 'id')");
    expect(app.frame()).not.toContain(INCIDENTS_GONE);
    context.close();
  });

  it('the feeds port finds a reader that came back on another port through the registry', async () => {
    daemon = await startInProcessDaemon();
    const db = join(daemon.dir, 'reader.sqlite');
    const first = await startAnnouncedReader(db);
    await first.service.createList('kept across restarts', 'private');
    const port = createFeedsPort();
    const reader = await port.reader();
    expect((await reader.listLists()).map((list) => list.title)).toEqual(['kept across restarts']);

    await first.close();
    const second = await startAnnouncedReader(db);
    expect(second.url).not.toBe(first.url);
    // The call the old address refused is made again at the new one; the same object keeps working.
    expect((await reader.listLists()).map((list) => list.title)).toEqual(['kept across restarts']);
    await reader.createList('after the restart', 'private');
    expect((await second.service.listLists()).map((list) => list.title).sort()).toEqual(['after the restart', 'kept across restarts']);
    await port.close();
  });

  it('the reader the TUI starts prefers its port and takes the next free one when it is taken', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const taken = (holder.address() as AddressInfo).port;
    try {
      const next = await firstFreePort(taken);
      expect(next).toBeGreaterThan(taken);
      expect(next).toBeLessThan(taken + 20);
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
    // Free again: the preferred port itself, so a shared list's RSS URL survives a restart.
    expect(await firstFreePort(taken)).toBe(taken);
  });
});
