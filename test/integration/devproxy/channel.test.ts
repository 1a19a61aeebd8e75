import vm from 'node:vm';
import {afterEach, describe, expect, it, vi} from 'vitest';
import {WebSocket} from 'ws';
import {MAX_PAGE_FRAME, type ProxyMessage} from '../../../source/devproxy/channel/protocol.js';
import {CHANNEL_PATH, type CustomTraffic, type DevProxy, type DiagnosticTraffic, type ErrorTraffic, type PageTraffic} from '../../../source/devproxy/types.js';
import {request, startTarget, startTestProxy, type TestTarget} from './harness.js';

let target: TestTarget | undefined;
let proxy: DevProxy | undefined;
const pages: WebSocket[] = [];
afterEach(async () => {
  for (const page of pages.splice(0)) page.terminate();
  await proxy?.stop();
  await target?.close();
  proxy = undefined;
  target = undefined;
});

async function setup(mapStack?: (stack: string, pageUrl: string) => Promise<string>): Promise<DevProxy> {
  target = await startTarget((_req, res) => res.end('<html><head><title>App</title></head></html>'));
  proxy = await startTestProxy(target.url, {}, mapStack ? {mapStack} : {});
  return proxy;
}

interface TestPage {
  socket: WebSocket;
  send(message: unknown): void;
  closed: Promise<number>;
}

/**
 * A page as the page script would be: connects from the proxy's own origin, says hello, and runs
 * execs in a small context whose document.title is "App" (code named `loop` never answers, as a
 * page stuck in a loop would not).
 */
async function openPage(devProxy: DevProxy, session = 'tab-1', options: {origin?: string; hello?: boolean} = {}): Promise<TestPage> {
  const socket = new WebSocket(`ws://127.0.0.1:${devProxy.info.port}${CHANNEL_PATH}`, {origin: options.origin ?? devProxy.info.url});
  pages.push(socket);
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as ProxyMessage;
    if (message.code === 'loop') return;
    try {
      const value: unknown = vm.runInNewContext(message.code, {document: {title: 'App'}});
      socket.send(JSON.stringify({t: 'result', id: message.id, ok: true, value}));
    } catch (error) {
      socket.send(JSON.stringify({t: 'result', id: message.id, ok: false, error: String(error)}));
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.on('open', () => resolve());
    socket.on('error', reject);
  });
  const send = (message: unknown) => socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  if (options.hello !== false) send({t: 'hello', session, url: `${devProxy.info.url}/`, title: 'App', loadedAt: 1000, userAgent: 'test'});
  return {socket, send, closed};
}

const entriesOf = <T>(devProxy: DevProxy, type: 'error' | 'custom' | 'diagnostic' | 'page') => devProxy.log({types: [type], limit: 100_000}) as T[];

describe('the page channel', () => {
  it('keeps a session per tab: hello, navigation, interaction, and its close', async () => {
    const devProxy = await setup();
    const page = await openPage(devProxy);
    await vi.waitFor(
      () =>
        expect(devProxy.pages()).toEqual([expect.objectContaining({session: 'tab-1', url: `${devProxy.info.url}/`, title: 'App', connected: true, errors: 0, userAgent: 'test'})]),
      {
        timeout: 15_000,
      },
    );
    page.send({t: 'navigate', url: `${devProxy.info.url}/settings`, title: 'Settings'});
    page.send({t: 'interaction', kind: 'click', timestamp: 5});
    await vi.waitFor(() => expect(devProxy.pages()[0]).toMatchObject({url: `${devProxy.info.url}/settings`, title: 'Settings', lastInteraction: expect.any(Number)}), {
      timeout: 15_000,
    });
    expect(devProxy.info.pages).toBe(1);
    page.socket.close();
    await vi.waitFor(() => expect(devProxy.pages()[0]!.connected).toBe(false), {timeout: 15_000});
    expect(entriesOf<PageTraffic>(devProxy, 'page').map((entry) => entry.event)).toEqual(['load', 'navigate', 'close']);
  });

  it('turns page errors into error entries, their stacks mapped, and counts them for the session', async () => {
    const devProxy = await setup(async (stack) => stack.replace('assets/index-3f2a.js:1:90412', 'src/App.tsx:42:7'));
    const page = await openPage(devProxy);
    const stack = 'TypeError: x is undefined\n    at App (http://127.0.0.1/assets/index-3f2a.js:1:90412)';
    page.send({t: 'error', message: 'TypeError: x is undefined', category: 'TypeError', stack, url: `${devProxy.info.url}/`, timestamp: 1});
    await vi.waitFor(() => expect(entriesOf<ErrorTraffic>(devProxy, 'error')).toHaveLength(1), {timeout: 15_000});
    expect(entriesOf<ErrorTraffic>(devProxy, 'error')[0]).toMatchObject({
      message: 'TypeError: x is undefined',
      category: 'TypeError',
      page: `${devProxy.info.url}/`,
      session: 'tab-1',
      rawStack: stack,
      stack: expect.stringContaining('src/App.tsx:42:7'),
    });
    expect(devProxy.pages()[0]!.errors).toBe(1);
    expect(devProxy.records().js).toHaveLength(1);
  });

  it('keeps the raw stack when mapping fails', async () => {
    const devProxy = await setup(async () => {
      throw new Error('no source map');
    });
    const page = await openPage(devProxy);
    page.send({t: 'error', message: 'boom', stack: 'Error: boom\n    at f (http://x/a.js:1:1)', url: 'http://x/', timestamp: 1});
    await vi.waitFor(() => expect(entriesOf<ErrorTraffic>(devProxy, 'error')[0]).toMatchObject({stack: 'Error: boom\n    at f (http://x/a.js:1:1)'}), {timeout: 15_000});
    expect(entriesOf<ErrorTraffic>(devProxy, 'error')[0]!.rawStack).toBeUndefined();
  });

  it('records __devtool.log() at every level as custom entries with their data', async () => {
    const devProxy = await setup();
    const page = await openPage(devProxy);
    page.send({t: 'log', level: 'error', message: 'checkout failed', data: {order: 7}, url: 'http://x/', timestamp: 1});
    page.send({t: 'log', level: 'info', message: 'loaded', url: 'http://x/', timestamp: 2});
    page.send({t: 'log', level: 'warn', message: 'big', data: 'y'.repeat(10_000), url: 'http://x/', timestamp: 3});
    await vi.waitFor(() => expect(entriesOf<CustomTraffic>(devProxy, 'custom')).toHaveLength(3), {timeout: 15_000});
    const [first, second, third] = entriesOf<CustomTraffic>(devProxy, 'custom');
    expect(first).toMatchObject({level: 'error', message: 'checkout failed', data: {order: 7}, page: 'http://x/', session: 'tab-1'});
    expect(second).toMatchObject({level: 'info', message: 'loaded'});
    expect(JSON.stringify(third!.data).length).toBeLessThan(2200);
  });

  it('ignores malformed, unknown and pre-hello messages, and reports them as one diagnostic', async () => {
    const devProxy = await setup();
    const page = await openPage(devProxy, 'tab-1', {hello: false});
    page.send({t: 'error', message: 'before hello', url: 'http://x/', timestamp: 1});
    page.send({t: 'hello', session: 'tab-1', url: 'http://x/', title: 'x', loadedAt: 1});
    page.send('not json');
    page.send('[1,2]');
    page.send({t: 'exec', code: 'x'});
    page.send({t: 'log', level: 'fatal', message: 'x', url: 'x', timestamp: 1});
    page.send({t: 'error', message: 'm'.repeat(5000), url: 'x', timestamp: 1});
    page.socket.send(Buffer.from([1, 2, 3]), {binary: true});
    page.send({t: 'log', level: 'warn', message: 'still listening', url: 'http://x/', timestamp: 2});
    await vi.waitFor(() => expect(entriesOf<DiagnosticTraffic>(devProxy, 'diagnostic')).toHaveLength(1), {timeout: 15_000});
    expect(entriesOf<DiagnosticTraffic>(devProxy, 'diagnostic')[0]).toMatchObject({
      level: 'warning',
      category: 'page_message_invalid',
      message: expect.stringContaining('ignored 7 '),
    });
    expect(entriesOf<CustomTraffic>(devProxy, 'custom').map((entry) => entry.message)).toEqual(['still listening']);
    expect(entriesOf<ErrorTraffic>(devProxy, 'error')).toEqual([]);
  });

  it('closes a page that sends a frame over the cap', async () => {
    const devProxy = await setup();
    const page = await openPage(devProxy);
    page.send({t: 'log', level: 'info', message: 'x', data: 'z'.repeat(MAX_PAGE_FRAME), url: 'x', timestamp: 1});
    expect(await page.closed).toBe(1009);
    await vi.waitFor(() => expect(entriesOf<DiagnosticTraffic>(devProxy, 'diagnostic')[0]).toMatchObject({category: 'page_message_invalid'}), {timeout: 15_000});
  });

  it('rate-limits a runaway page: 10,000 errors become a bounded few, the rest counted, and the proxy keeps answering', async () => {
    const devProxy = await setup();
    const page = await openPage(devProxy);
    const total = 10_000;
    for (let index = 0; index < total; index++) page.send({t: 'error', message: `loop ${index}`, url: 'http://x/', timestamp: index});
    // While the flood is being read, a request through the proxy still gets its answer.
    expect((await request(`${devProxy.info.url}/`)).status).toBe(200);
    const dropped = () =>
      entriesOf<DiagnosticTraffic>(devProxy, 'diagnostic')
        .filter((entry) => entry.category === 'page_rate_limited')
        .reduce((sum, entry) => sum + Number(/dropped (\d+)/.exec(entry.message)![1]), 0);
    await vi.waitFor(() => expect(entriesOf<ErrorTraffic>(devProxy, 'error').length + dropped()).toBe(total), {timeout: 15_000});
    expect(entriesOf<ErrorTraffic>(devProxy, 'error').length).toBeLessThan(total / 4);
    expect(dropped()).toBeGreaterThan(total / 2);
  });

  it('refuses a channel connection from another origin', async () => {
    const devProxy = await setup();
    const refused = await new Promise<number>((resolve) => {
      const socket = new WebSocket(`ws://127.0.0.1:${devProxy.info.port}${CHANNEL_PATH}`, {origin: 'http://evil.example'});
      socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      socket.on('open', () => resolve(101));
    });
    expect(refused).toBe(403);
  });
});

describe('exec', () => {
  it('returns the value from every connected page, or from one session', async () => {
    const devProxy = await setup();
    await openPage(devProxy, 'tab-1');
    await openPage(devProxy, 'tab-2');
    await vi.waitFor(() => expect(devProxy.info.pages).toBe(2), {timeout: 15_000});
    const results = await devProxy.exec('document.title');
    expect(results.map((result) => [result.session, result.ok, result.ok && result.value])).toEqual([
      ['tab-1', true, 'App'],
      ['tab-2', true, 'App'],
    ]);
    expect(await devProxy.exec('1 + 1', {session: 'tab-2'})).toEqual([{session: 'tab-2', url: `${devProxy.info.url}/`, ok: true, value: 2}]);
  });

  it('returns the error of code that throws', async () => {
    const devProxy = await setup();
    await openPage(devProxy);
    await vi.waitFor(() => expect(devProxy.info.pages).toBe(1), {timeout: 15_000});
    const [result] = await devProxy.exec('throw new TypeError("nope")');
    expect(result).toMatchObject({ok: false, error: 'TypeError: nope'});
  });

  it('times out on a page that never answers, and fails at once when the page goes', async () => {
    const devProxy = await setup();
    const page = await openPage(devProxy);
    await vi.waitFor(() => expect(devProxy.info.pages).toBe(1), {timeout: 15_000});
    const [result] = await devProxy.exec('loop', {timeoutMs: 200});
    expect(result).toMatchObject({ok: false, error: 'the page did not answer within 200 ms'});
    const pending = devProxy.exec('loop', {timeoutMs: 60_000});
    page.socket.close();
    expect((await pending)[0]).toMatchObject({ok: false, error: 'the page closed before answering'});
  });

  it('says clearly when no page is connected, and refuses garbage', async () => {
    const devProxy = await setup();
    await expect(devProxy.exec('document.title')).rejects.toMatchObject({code: 'no_page', message: expect.stringContaining(`open ${devProxy.info.url}`)});
    await openPage(devProxy);
    await vi.waitFor(() => expect(devProxy.info.pages).toBe(1), {timeout: 15_000});
    await expect(devProxy.exec('1', {session: 'nope'})).rejects.toMatchObject({code: 'no_page'});
    await expect(devProxy.exec('')).rejects.toMatchObject({code: 'invalid_argument'});
    await expect(devProxy.exec(42 as never)).rejects.toMatchObject({code: 'invalid_argument'});
    await expect(devProxy.exec('1', {timeoutMs: -5})).rejects.toMatchObject({code: 'invalid_argument'});
    await expect(devProxy.exec('1', {timeoutMs: 'soon' as never})).rejects.toMatchObject({code: 'invalid_argument'});
  });

  it('ignores answers to execs the page was not asked', async () => {
    const devProxy = await setup();
    const page = await openPage(devProxy);
    await vi.waitFor(() => expect(devProxy.info.pages).toBe(1), {timeout: 15_000});
    page.send({t: 'result', id: 'forged', ok: true, value: 1});
    expect(await devProxy.exec('2')).toMatchObject([{ok: true, value: 2}]);
  });
});
