import {writeFileSync} from 'node:fs';
import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {cleanup} from 'ink-testing-library';
import type {DaemonClient} from '../../../source/daemon/client.js';
import {projectRoot} from '../../../source/project/project-root.js';
import {ensureDaemon} from '../../../source/daemon/lifecycle.js';
import type {MethodName} from '../../../source/daemon/protocol/index.js';
import type {ToolContext} from '../../../source/tools/registry-types.js';
import {createPorts, type PortOptions, type TuiPorts} from '../../../source/tui/ports/index.js';
import {startInProcessDaemon, type InProcessDaemon} from './daemonHarness.js';
import {renderApp} from './renderApp.js';

// The Processes and Incidents panes wait for what the daemon pushes: on a quiet daemon the TUI
// sends nothing, and a change made elsewhere (the CLI's own connection) reaches the pane through
// an event. The ports run over a real client whose calls and received events are written to a log.

let daemon: InProcessDaemon;
let traced: Traced | undefined;

beforeEach(async () => {
  daemon = await startInProcessDaemon();
});

afterEach(async () => {
  vi.useRealTimers();
  cleanup();
  await traced?.close();
  traced = undefined;
  await daemon.close();
});

interface Traced {
  ports: TuiPorts;
  /** Methods called (`subscribe <topic>` for events.subscribe) and events received (`event <topic>`), in order. */
  log: string[];
  /** Waits until the ports have subscribed, fetched once after it, and have no call in flight. */
  settled(...after: [subscribed: string, fetched: string][]): Promise<void>;
  /**
   * What the log holds from `mark` on, pings aside, once the status bar has pinged QUIET_PINGS
   * more times: a quiet window counted in the ports' own timer turns and round trips to the
   * daemon, which a poll or a fetch would have had as well, not in wall time a loaded machine may
   * spend elsewhere.
   */
  quiet(mark: number): Promise<string[]>;
  close(): Promise<void>;
}

/** Ports over their own connection to the daemon (as the TUI's tool context holds one), traced. */
function tracedPorts(options: PortOptions = {}): Traced {
  const log: string[] = [];
  let pending = 0;
  const clients: DaemonClient[] = [];
  const trace = async (client: DaemonClient) => {
    // Events as they arrive, before any port's listener runs on them.
    for (const topic of ['processes', 'inbox', 'alerts', 'output', 'proxies', 'traffic'] as const) await client.subscribe(topic, () => log.push(`event ${topic}`));
    const call = client.call.bind(client) as (method: MethodName, params?: unknown) => Promise<unknown>;
    client.call = ((method: MethodName, params?: {topic?: string}) => {
      log.push(method === 'events.subscribe' ? `subscribe ${params?.topic}` : method);
      pending++;
      return call(method, params).finally(() => pending--);
    }) as DaemonClient['call'];
  };
  let connection: Promise<DaemonClient> | undefined;
  const context: ToolContext = {
    cwd: daemon.project,
    noDaemon: false,
    daemon() {
      connection ??= ensureDaemon({autostart: false}).then(async ({client}) => {
        // As createToolContext: the client works in the context's project.
        client.project = projectRoot(daemon.project);
        clients.push(client);
        await trace(client);
        client.closedPromise().then(() => (connection = undefined));
        return client;
      });
      connection.catch(() => (connection = undefined));
      return connection;
    },
  };
  // The status bar's look (a ping) every 20 ms, as often as the ports retry: it is the clock of the quiet windows.
  const ports = createPorts(context, {retryMs: 20, statusPollMs: 20, ...options});
  const fetchedAfter = (subscribed: string, fetched: string) => {
    const at = log.indexOf(subscribed);
    return at >= 0 && log.indexOf(fetched, at + 1) > at;
  };
  return {
    ports,
    log,
    settled: (...after) =>
      vi.waitFor(
        () => {
          const done = pending === 0 && after.every(([subscribed, fetched]) => fetchedAfter(subscribed, fetched)) && log.filter((entry) => entry === 'ping').length >= 2;
          if (!done) throw new Error(`ports not settled: ${log.join(', ')}`);
        },
        {timeout: 15_000, interval: 10},
      ),
    quiet: async (mark) => {
      await vi.waitFor(
        () => {
          const pings = log.slice(mark).filter((entry) => entry === 'ping').length;
          if (pings < QUIET_PINGS) throw new Error(`${pings} pings since the mark: ${log.slice(mark).join(', ')}`);
        },
        {timeout: 15_000, interval: 10},
      );
      return log.slice(mark).filter((entry) => entry !== 'ping');
    },
    close: async () => {
      await ports.close();
      for (const client of clients) client.close();
    },
  };
}

// 15 times the ports' retry interval (the pings come as often), and 25 times the wait between
// looks of the polling the events replaced.
const QUIET_PINGS = 15;

/** The log from `mark` on: the first `event` comes before the first `call` (pings are the status bar's clock). */
function expectEventBeforeCall(entries: string[], event: string, call: string): void {
  expect(entries).toContain(event);
  expect(entries).toContain(call);
  expect(entries.indexOf(event)).toBeLessThan(entries.indexOf(call));
}

describe('TUI panes on pushed daemon events', () => {
  it('sends nothing to a quiet daemon, and shows a process started through the CLI after its processes event', async () => {
    traced = tracedPorts();
    const app = await renderApp(traced.ports);
    await app.waitForText('no processes · s starts a script');
    await traced.settled(['subscribe processes', 'proc.list'], ['subscribe inbox', 'incidents.query']);
    const mark = traced.log.length;
    expect(await traced.quiet(mark)).toEqual([]);

    // `workbench run --cmd`, on the harness's own connection.
    await daemon.run('node web.mjs', 'web');
    await app.waitFor((frame) => /web\s+running/.test(frame), 'web running');
    expectEventBeforeCall(traced.log.slice(mark), 'event processes', 'proc.list');
  });

  it('shows a new alert in the Incidents pane after the inbox event', async () => {
    traced = tracedPorts();
    const app = await renderApp(traced.ports);
    await app.press('2');
    await app.waitForText('no processes');
    await traced.settled(['subscribe processes', 'proc.list'], ['subscribe inbox', 'incidents.query']);
    const mark = traced.log.length;
    expect(await traced.quiet(mark)).toEqual([]);

    await daemon.run('exec node worker.mjs', 'worker');
    await app.waitFor((frame) => /✖.*process:worker\s+TypeError/.test(frame), 'the TypeError row');
    expectEventBeforeCall(traced.log.slice(mark), 'event inbox', 'incidents.query');
  });

  it('shows a process’s new output after its output event, and asks for none meanwhile', async () => {
    const signal = join(daemon.dir, 'go');
    // Prints a line, then a second once the test creates the signal file.
    await daemon.run(
      `node -e "const fs = require('fs'); console.log('first line'); const t = setInterval(() => { if (fs.existsSync('${signal}')) { console.log('second line'); clearInterval(t); } }, 20); setInterval(() => {}, 1000)"`,
      'late',
    );
    // The first line's output event goes out before the ports subscribe: otherwise it may land in the quiet period.
    await vi.waitFor(async () => expect((await (await daemon.context.daemon()).call('proc.output', {id: 'late'})).output).toContain('first line'), {timeout: 15_000});
    traced = tracedPorts();
    const app = await renderApp(traced.ports);
    await app.waitForText('first line');
    await traced.settled(['subscribe processes', 'proc.list'], ['subscribe inbox', 'incidents.query'], ['subscribe output', 'proc.output']);
    const mark = traced.log.length;
    expect(await traced.quiet(mark)).toEqual([]);

    writeFileSync(signal, '');
    await app.waitForText('second line');
    expectEventBeforeCall(traced.log.slice(mark), 'event output', 'proc.output');
  });

  it('neither fetches nor redraws for the output of a process whose output is not shown', async () => {
    const signal = join(daemon.dir, 'go-hidden');
    await daemon.run(`node -e "console.log('shown line'); setInterval(() => {}, 1000)"`, 'shown');
    await daemon.run(
      `node -e "const fs = require('fs'); console.log('hidden first'); const t = setInterval(() => { if (fs.existsSync('${signal}')) { console.log('hidden second'); clearInterval(t); } }, 20); setInterval(() => {}, 1000)"`,
      'hidden',
    );
    const outputOf = async (id: string) => (await (await daemon.context.daemon()).call('proc.output', {id})).output;
    await vi.waitFor(async () => expect(await outputOf('hidden')).toContain('hidden first'), {timeout: 15_000});
    traced = tracedPorts();
    const app = await renderApp(traced.ports);
    // The first process is selected: its output is the one in view.
    await app.waitForText('shown line');
    await traced.settled(['subscribe processes', 'proc.list'], ['subscribe inbox', 'incidents.query'], ['subscribe output', 'proc.output']);
    // Time stands still: the uptimes, which move every second in a process's first minute, stay as they are.
    vi.useFakeTimers({toFake: ['Date']});
    const mark = traced.log.length;
    // What the answers above asked to draw is drawn before the count starts: the GraphQL pane's
    // in-process service has opened (it starts a SQLite reader process first), and React is idle.
    await app.waitFor((frame) => !frame.includes('connecting…'), 'the GraphQL pane connected');
    await app.rendered();
    const frames = app.frames.length;

    writeFileSync(signal, '');
    await vi.waitFor(async () => expect(await outputOf('hidden')).toContain('hidden second'), {timeout: 15_000});
    // The event has reached this connection (the trace hears every process's output): the quiet
    // window starts after it.
    await vi.waitFor(() => expect(traced!.log.slice(mark)).toContain('event output'), {timeout: 15_000});
    // The ports asked for nothing.
    expect((await traced.quiet(mark)).filter((entry) => entry !== 'event output')).toEqual([]);
    expect(app.frames.length).toBe(frames);
    expect(app.frame()).not.toContain('hidden second');
  });

  it('the Proxy pane sends nothing while a proxy is quiet, and asks for its traffic after the traffic event', async () => {
    const target = createServer((_request, response) => response.end('ok'));
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    try {
      const info = await daemon.ports.proxies.start({id: 'web', target: `http://127.0.0.1:${(target.address() as AddressInfo).port}`});
      traced = tracedPorts();
      const app = await renderApp(traced.ports);
      await app.press('4');
      await app.waitForText(`no requests yet · open ${info.url}`);
      await traced.settled(['subscribe proxies', 'proxy.list'], ['subscribe traffic', 'proxy.log']);
      const mark = traced.log.length;
      expect(await traced.quiet(mark)).toEqual([]);

      await fetch(`${info.url}/first`).then((response) => response.arrayBuffer());
      await app.waitForText('/first');
      expectEventBeforeCall(traced.log.slice(mark), 'event traffic', 'proxy.log');
    } finally {
      target.closeAllConnections();
      await new Promise<void>((resolve) => target.close(() => resolve()));
    }
  });

  it('the status bar pings over the ports’ one connection instead of connecting each time', async () => {
    const before = daemon.connectionsAccepted();
    traced = tracedPorts({statusPollMs: 20});
    const app = await renderApp(traced.ports);
    await app.waitForText(`daemon pid ${process.pid} · demo`);
    await vi.waitFor(
      () => {
        if (traced!.log.filter((entry) => entry === 'ping').length < 10) throw new Error(`not enough pings: ${traced!.log.join(', ')}`);
      },
      {timeout: 15_000, interval: 10},
    );
    expect(daemon.connectionsAccepted() - before).toBe(1);
  });
});
