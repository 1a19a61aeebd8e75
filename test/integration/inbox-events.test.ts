import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest';
import {DaemonClient} from '../../source/daemon/client.js';
import {Inbox, type InboxChange} from '../../source/daemon/inbox.js';
import type {DaemonEvents} from '../../source/daemon/protocol/index.js';
import {ProxyManager} from '../../source/devproxy/manager.js';
import type {ScannedAlert} from '../../source/incidents/types.js';
import {Supervisor} from '../../source/processes/supervisor.js';
import {makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';
import {connectPage} from '../helpers/page-client.js';
import {startTargetApp, type TargetApp} from '../helpers/target-app.js';
import {MARK_SCRIPT} from './devproxy/harness.js';
import {startProxy} from '../../source/devproxy/start-proxy.js';

let target: TargetApp;

beforeAll(async () => {
  target = await startTargetApp();
});

afterAll(async () => {
  await target?.close();
});

const get = async (url: string) => (await fetch(url)).arrayBuffer();

const alert = (message: string): ScannedAlert => ({severity: 'error', category: 'Error', message, location: '', compile: false, raw: `Error: ${message}`});

describe('the inbox object: one change event for every source', () => {
  let supervisor: Supervisor;
  let proxies: ProxyManager;
  let inbox: Inbox;
  const changes: InboxChange[] = [];
  let waiters: Array<() => void> = [];

  /** The next change announced (after those already seen). */
  const nextChange = async (): Promise<InboxChange> => {
    const seen = changes.length;
    await new Promise<void>((resolve) => {
      const check = () => (changes.length > seen ? resolve() : waiters.push(check));
      check();
    });
    return changes[seen]!;
  };

  beforeEach(() => {
    changes.length = 0;
    supervisor = new Supervisor();
    proxies = new ProxyManager((options) => startProxy(options, {pageScript: MARK_SCRIPT}));
    inbox = new Inbox(supervisor, proxies);
    inbox.on('changed', (change) => {
      changes.push(change);
      const pending = waiters;
      waiters = [];
      for (const waiter of pending) waiter();
    });
  });

  afterEach(async () => {
    inbox.close();
    await proxies.stopAll();
  });

  it('announces a proxied 500 and a 404, not a 200 nor a favicon miss, and reads them as get_errors lists them', async () => {
    const proxy = await proxies.start({id: 'shop', target: target.url});
    const first = nextChange();
    await get(`${proxy.url}/api/boom`);
    expect(await first).toEqual({processes: [], proxies: ['shop']});
    expect(inbox.sources().proxies[0]!.http.map((entry) => entry.status)).toEqual([500]);

    // A 200 and a favicon 404 are no news: the next change is the alert sent after them, alone.
    await get(`${proxy.url}/api/ok`);
    await get(`${proxy.url}/favicon.ico`);
    const sentinel = nextChange();
    supervisor.alerts.add('sentinel', alert('after the quiet requests'));
    expect(await sentinel).toEqual({processes: ['sentinel'], proxies: []});

    const missing = nextChange();
    await get(`${proxy.url}/nothing-here`);
    expect(await missing).toEqual({processes: [], proxies: ['shop']});
  });

  it('announces an error pushed out of a full log, and a stopped proxy that held errors (not one that held none)', async () => {
    const small = await proxies.start({id: 'small', target: target.url, logSize: 2});
    const quiet = await proxies.start({id: 'quiet', target: target.url});
    const logged = nextChange();
    await get(`${small.url}/api/boom`);
    await logged;
    await get(`${small.url}/api/ok`);
    // The third entry pushes the 500 out: the inbox lost it, so it says so.
    const lost = nextChange();
    await get(`${small.url}/api/ok`);
    expect(await lost).toEqual({processes: [], proxies: ['small']});
    expect(
      inbox
        .sources()
        .proxies.find((records) => records.id === 'small')!
        .http.map((entry) => entry.status),
    ).toEqual([200, 200]);

    const withErrors = await proxies.start({id: 'failing', target: target.url});
    const failed = nextChange();
    await get(`${withErrors.url}/api/boom`);
    await failed;
    // Stopping a proxy that held only a 200 is no news; stopping one that held a 500 is.
    await get(`${quiet.url}/api/ok`);
    await proxies.stop('quiet');
    const stopped = nextChange();
    await proxies.stop('failing');
    expect(await stopped).toEqual({processes: [], proxies: ['failing']});
  });

  it('gathers a burst into one change at once and one at its end', async () => {
    const burst = nextChange();
    for (let index = 0; index < 200; index++) supervisor.alerts.add(index % 2 ? 'web' : 'worker', alert(`burst ${index}`));
    // The first alert is news at once; the other 199 wait for the burst's end.
    expect(await burst).toEqual({processes: ['worker'], proxies: []});
    expect(changes).toHaveLength(1);
    const end = await nextChange();
    expect(end.processes.sort()).toEqual(['web', 'worker']);
    expect(changes).toHaveLength(2);
  });
});

describe('the daemon socket: an inbox event for proxy and browser errors', () => {
  let sandbox: Sandbox;
  let client: DaemonClient | undefined;

  beforeAll(async () => {
    sandbox = makeSandbox('wb-inbox-');
    expect((await runCli(['daemon', 'start'], {env: sandbox.env})).code).toBe(0);
    const {socket} = JSON.parse((await runCli(['daemon', 'status', '--json'], {env: sandbox.env})).stdout);
    client = await DaemonClient.connect(socket);
  });

  afterAll(async () => {
    client?.close();
    await sandbox?.cleanup();
  });

  /** Subscribes, then gives the first event of a topic that passes `accept` (in an object: an async function would wait for it). */
  async function next<T extends keyof DaemonEvents>(topic: T, accept: (event: DaemonEvents[T]) => boolean): Promise<{event: Promise<DaemonEvents[T]>}> {
    let resolve!: (event: DaemonEvents[T]) => void;
    const arrived = new Promise<DaemonEvents[T]>((done) => (resolve = done));
    const off = await client!.subscribe(topic, (event) => accept(event) && resolve(event));
    return {event: arrived.finally(() => void off())};
  }

  it('pushes `inbox` to a subscriber for a proxied 500 and for a browser error, with no process at all', async () => {
    const proxy = await client!.call('proxy.start', {id: 'shop', target: target.url});
    const forShop = (event: DaemonEvents['inbox']) => event.proxies.includes('shop');

    const served = await next('inbox', forShop);
    await get(`${proxy.url}/api/boom`);
    expect(await served.event).toEqual({event: 'inbox', processes: [], proxies: ['shop']});
    const errors = await client!.call('errors.query', {proxy_id: 'shop'});
    expect(errors).toContainEqual(expect.objectContaining({source: 'proxy:http', category: '500 Internal Server Error'}));

    const thrown = await next('inbox', forShop);
    const page = await connectPage(proxy.url, {url: `${proxy.url}/`, title: 'Target app'});
    page.send({t: 'error', message: "TypeError: Cannot read properties of undefined (reading 'price')", category: 'TypeError', url: `${proxy.url}/`, timestamp: Date.now()});
    expect(await thrown.event).toEqual({event: 'inbox', processes: [], proxies: ['shop']});
    const incidents = await client!.call('incidents.query');
    expect(incidents.map((incident) => [incident.source, incident.category])).toEqual(
      expect.arrayContaining([
        ['browser:js', 'TypeError'],
        ['proxy:http', '500 Internal Server Error'],
      ]),
    );
    await page.close();
    expect(await client!.call('proc.list')).toEqual([]);
  });
});
