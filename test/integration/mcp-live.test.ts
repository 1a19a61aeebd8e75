import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  EmptyResultSchema,
  LoggingMessageNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type LoggingMessageNotification,
} from '@modelcontextprotocol/sdk/types.js';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {launchChromium} from '../../source/browser/chromium.js';
import {cliPath, daemonPid, eventually, killDaemon, makeSandbox, type Sandbox} from '../helpers/cli.js';
import {connectPage, type FakePage} from '../helpers/page-client.js';
import {requirePackage} from '../helpers/system-package.js';
import {closedPort, startTargetApp, type TargetApp} from '../helpers/target-app.js';

/**
 * Issue 29 items 1, 2, 4 and 5 through the official SDK client over stdio, on the real daemon,
 * real processes and the real dev proxy: resources and their paging, subscriptions and their
 * coalescing, logging, prompts and completion, and their bad input.
 */

const hasChromium = !requirePackage('chromium', {for: 'the page error that reaches a resource subscription'});

let sandbox: Sandbox;
let project: string;
let target: TargetApp;
let client: Client | undefined;
const pages: FakePage[] = [];

interface Heard {
  updated: {uri: string; at: number}[];
  listChanged: number;
  messages: LoggingMessageNotification['params'][];
}

let heard: Heard;

type Answer = {content: Array<{type: string; text: string}>; structuredContent?: Record<string, unknown>; isError?: boolean};
const call = async (name: string, args: Record<string, unknown> = {}) => {
  const answer = (await client!.callTool({name, arguments: args})) as Answer;
  expect(answer.isError, answer.content[0]?.text).toBeFalsy();
  return answer;
};
const read = async (uri: string) => {
  const {contents} = await client!.readResource({uri});
  expect(contents).toHaveLength(1);
  expect(contents[0]!.uri).toBe(uri);
  return (contents[0] as {text: string}).text;
};
/** The JSON-RPC error a request was answered with. */
const refusal = async (promise: Promise<unknown>) => {
  const error = (await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  )) as {code?: number; message?: string} | undefined;
  expect(error, 'the request was answered, not refused').toBeDefined();
  return {code: error!.code, message: error!.message!.replace(/^MCP error -?\d+: /, '')};
};

async function connect(args: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'mcp', ...args],
    cwd: project,
    env: sandbox.env as Record<string, string>,
    stderr: 'pipe',
  });
  const mcp = new Client({name: 'workbench-live-test', version: '1.0.0'});
  mcp.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => void heard.updated.push({uri: notification.params.uri, at: Date.now()}));
  mcp.setNotificationHandler(ResourceListChangedNotificationSchema, () => void (heard.listChanged += 1));
  mcp.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void heard.messages.push(notification.params));
  await mcp.connect(transport);
  return mcp;
}

const updatesOf = (uri: string) => heard.updated.filter((one) => one.uri === uri).length;
/** Waits for the next update of `uri` after `seen` of them were heard. */
const nextUpdate = (uri: string, seen = updatesOf(uri)) => eventually(() => updatesOf(uri) > seen, 30_000, 20);
type IncidentRow = {id: string; count: number; message: string; source: string};
const incidents = async () => ((await call('get_incidents', {limit: 100})).structuredContent as {incidents: IncidentRow[]}).incidents;

beforeEach(async () => {
  heard = {updated: [], listChanged: 0, messages: []};
  sandbox = makeSandbox('wb-mcp-live-');
  project = join(sandbox.dir, 'project');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({name: 'p', scripts: {hello: 'echo hello', failing: `node -e "console.error('Error: port 4000 is taken by another server'); process.exit(2)"`}}),
  );
  target = await startTargetApp();
});

afterEach(async () => {
  await Promise.all(pages.splice(0).map((page) => page.close()));
  await client?.close();
  client = undefined;
  await target.close();
  await sandbox.cleanup();
});

describe('resources (item 1)', {timeout: 120_000}, () => {
  it('lists templates and every kind of resource, reads each through the tools, pages the list and keeps texts within the budget', async () => {
    client = await connect();
    expect(client.getServerCapabilities()).toMatchObject({resources: {subscribe: true, listChanged: true}, logging: {}, prompts: {}, completions: {}, tools: {}});
    const {resourceTemplates} = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      'workbench://incidents/{id}',
      'workbench://processes/{id}/output',
      'workbench://proxies/{id}/traffic',
      'workbench://proxies/{id}/pages',
    ]);

    const proxy = (await call('proxy', {action: 'start', id: 'app', target: target.url})).structuredContent as {proxy: {url: string}};
    expect((await fetch(`${proxy.proxy.url}/api/boom`)).status).toBe(500);
    pages.push(await connectPage(proxy.proxy.url, {title: 'Checkout page'}));
    await call('run', {cmd: 'echo started-web; sleep 60', id: 'web'});
    const [incident] = await eventually(async () => (await incidents()).length > 0 && incidents());

    const {resources, nextCursor} = await client.listResources();
    expect(nextCursor).toBeUndefined();
    expect(resources.map((resource) => resource.uri)).toEqual([
      'workbench://incidents',
      'workbench://project',
      'workbench://processes/web/output',
      'workbench://proxies/app/traffic',
      'workbench://proxies/app/pages',
      `workbench://incidents/${incident!.id}`,
    ]);
    for (const resource of resources) expect(resource, resource.uri).toMatchObject({name: expect.any(String), title: expect.any(String), mimeType: 'text/plain'});

    expect(await read('workbench://project')).toMatch(/^hello +npm run hello +package\.json$/m);
    expect(await eventually(async () => (await read('workbench://processes/web/output')).includes('started-web') && read('workbench://processes/web/output'))).toMatch(
      /^web: running \(pid \d+\) — echo started-web; sleep 60\n\n--- output \(newest last\) ---\nstarted-web/,
    );
    expect(await read('workbench://proxies/app/traffic')).toMatch(/ http 500 GET \/api\/boom /);
    expect(await read('workbench://proxies/app/pages')).toMatch(/Checkout page/);
    expect(await read('workbench://incidents')).toContain(incident!.id);
    const whole = await read(`workbench://incidents/${incident!.id}`);
    expect(whole).toContain(`id: ${incident!.id}`);
    expect(whole).toContain('database connection refused by the test');

    // An output far over the budget keeps its newest lines and says it was cut.
    await call('run', {cmd: `node -e "for (let i = 0; i < 12000; i++) console.log('line ' + i + ' ' + 'x'.repeat(40))"`, id: 'loud', mode: 'foreground'});
    const loud = await read('workbench://processes/loud/output');
    expect(loud.length).toBeLessThanOrEqual(20_000);
    expect(loud).toMatch(/^loud: exited 0/);
    expect(loud).toMatch(/earlier characters left out/);
    expect(loud).toContain('line 11999 ');

    // More resources than one page: the cursor leads through all of them, each once.
    for (let i = 0; i < 100; i++) await call('run', {cmd: 'true', id: `batch-${i}`});
    const first = await client.listResources();
    expect(first.resources).toHaveLength(100);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await client.listResources({cursor: first.nextCursor});
    expect(second.nextCursor).toBeUndefined();
    const uris = [...first.resources, ...second.resources].map((resource) => resource.uri);
    expect(new Set(uris).size).toBe(uris.length);
    for (let i = 0; i < 100; i++) expect(uris).toContain(`workbench://processes/batch-${i}/output`);
    expect(uris).toContain('workbench://processes/loud/output');
    expect(await refusal(client.listResources({cursor: 'not-a-cursor'}))).toEqual({code: -32602, message: expect.stringMatching(/^invalid cursor/)});
  });
});

describe('subscriptions (item 2)', {timeout: 120_000}, () => {
  it('tells a subscriber of the inbox, an incident and a process about a real error, its repeat and the exit; list_changed when a process starts', async () => {
    // Fails once, then again when told to (a file appears), then exits 1.
    writeFileSync(
      join(project, 'fail.js'),
      [
        "const fs = require('node:fs');",
        "console.error('Error: the cart total is undefined');",
        "const again = setInterval(() => { if (!fs.existsSync('again')) return; clearInterval(again); console.error('Error: the cart total is undefined'); setTimeout(() => process.exit(1), 50); }, 20);",
      ].join('\n'),
    );
    client = await connect();
    await client.subscribeResource({uri: 'workbench://incidents'});
    await client.subscribeResource({uri: 'workbench://processes/cart/output'});
    const listed = heard.listChanged;
    const inboxSeen = updatesOf('workbench://incidents');
    await call('run', {cmd: 'node fail.js', id: 'cart'});
    await nextUpdate('workbench://incidents', inboxSeen);
    await eventually(() => heard.listChanged > listed, 30_000, 20);
    const [incident] = await eventually(async () => {
      const open = await incidents();
      return open.some((one) => one.message.includes('cart total')) && open;
    });
    expect(incident).toMatchObject({source: 'process:cart', count: 1});
    expect(await read('workbench://incidents')).toContain('the cart total is undefined');

    const uri = `workbench://incidents/${incident!.id}`;
    await client.subscribeResource({uri});
    const incidentSeen = updatesOf(uri);
    writeFileSync(join(project, 'again'), '');
    // The repeat changes the incident's count; the exit changes the process's status.
    await nextUpdate(uri, incidentSeen);
    expect(await read(uri)).toMatch(/^count: 2$/m);
    await eventually(async () => (await read('workbench://processes/cart/output')).startsWith('cart: exited 1'), 30_000, 50);
    const outputSeen = updatesOf('workbench://processes/cart/output');
    expect(outputSeen).toBeGreaterThan(0);

    // Unsubscribed, a change is no longer told: a change after it, told to a second subscription, proves the order.
    await client.unsubscribeResource({uri: 'workbench://processes/cart/output'});
    await client.subscribeResource({uri: 'workbench://processes/other/output'});
    await call('run', {cmd: 'node fail.js', id: 'other'});
    await nextUpdate('workbench://processes/other/output', 0);
    await call('proc', {action: 'restart', process_id: 'cart'});
    await call('proc', {action: 'restart', process_id: 'other'});
    // Told after both restarts: the cart's restart, first on the same connection, would have been told by then.
    const restarted = Date.now();
    await eventually(() => heard.updated.some((one) => one.uri === 'workbench://processes/other/output' && one.at >= restarted), 30_000, 20);
    expect(updatesOf('workbench://processes/cart/output')).toBe(outputSeen);
  });

  it('coalesces a burst of 1,000 page errors into a bounded number of notifications, the last one after the burst', async () => {
    client = await connect();
    const proxy = (await call('proxy', {action: 'start', id: 'burst', target: target.url, log_size: 5000})).structuredContent as {proxy: {url: string}};
    // Ten tabs, each within the page channel's per-session burst allowance: every error reaches the inbox.
    for (let tab = 0; tab < 10; tab++) pages.push(await connectPage(proxy.proxy.url, {session: `tab-${tab}`}));
    await client.subscribeResource({uri: 'workbench://incidents'});
    for (const page of pages)
      for (let i = 0; i < 100; i++) page.send({t: 'error', message: 'TypeError: total is undefined', category: 'TypeError', url: `${proxy.proxy.url}/cart`, timestamp: Date.now()});
    await eventually(async () => (await incidents()).find((one) => one.message.includes('total is undefined'))?.count === 1000, 60_000);
    // The trailing notice comes after the last change: wait for one heard after the inbox was whole.
    const whole = Date.now();
    await eventually(() => heard.updated.some((one) => one.uri === 'workbench://incidents' && one.at >= whole), 30_000, 20);
    const times = heard.updated.filter((one) => one.uri === 'workbench://incidents').map((one) => one.at);
    const span = times.at(-1)! - times[0]!;
    // At most one per 250 ms plus the two edges (and one for the wait's own margin).
    expect(times.length).toBeLessThanOrEqual(Math.floor(span / 250) + 3);
    expect(times.length).toBeLessThan(100);
  });

  it.skipIf(!hasChromium)('tells a subscriber of the inbox and of the proxy about a page error thrown in Chromium', async () => {
    client = await connect();
    const proxy = (await call('proxy', {action: 'start', id: 'shop', target: target.url})).structuredContent as {proxy: {url: string}};
    await client.subscribeResource({uri: 'workbench://incidents'});
    await client.subscribeResource({uri: 'workbench://proxies/shop/pages'});
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`${proxy.proxy.url}/throws`);
      await nextUpdate('workbench://incidents', 0);
      await eventually(async () => (await read('workbench://incidents')).includes('TypeError'), 30_000);
      await nextUpdate('workbench://proxies/shop/pages', 0);
      expect(await read('workbench://proxies/shop/pages')).toContain('Throwing page');
    } finally {
      await browser.close();
    }
  });
});

describe('logging (item 4)', {timeout: 120_000}, () => {
  it('sends the daemon warnings at their levels, filtered by logging/setLevel', async () => {
    client = await connect();
    await client.setLoggingLevel('warning');
    await call('run', {cmd: 'exit 0', id: 'clean', mode: 'foreground'});
    await call('run', {cmd: 'echo bye; exit 3', id: 'crasher', mode: 'foreground'});
    const crash = await eventually(() => heard.messages.find((message) => (message.data as {process_id?: string}).process_id === 'crasher'), 30_000, 20);
    expect(crash).toMatchObject({level: 'error', logger: 'workbench', data: {message: 'process crasher exited 3: echo bye; exit 3', status: 'exited', exit_code: 3}});
    // The clean exit is information, under the level set; it came first, so it would have been heard.
    expect(heard.messages.filter((message) => (message.data as {process_id?: string}).process_id === 'clean')).toEqual([]);

    // A proxy whose target is down fails every request: a warning, repeats folded into a bounded number.
    const down = (await call('proxy', {action: 'start', id: 'down', target: `http://127.0.0.1:${await closedPort()}`})).structuredContent as {proxy: {url: string}};
    for (let i = 0; i < 20; i++) expect((await fetch(`${down.proxy.url}/page-${i}`)).status).toBe(502);
    const warning = await eventually(() => heard.messages.find((message) => (message.data as {proxy_id?: string}).proxy_id === 'down'), 30_000, 20);
    expect(warning).toMatchObject({
      level: 'warning',
      data: {message: expect.stringMatching(/^proxy down: cannot reach the target .*connection refused/), category: 'ECONNREFUSED'},
    });
    expect(heard.messages.filter((message) => (message.data as {proxy_id?: string}).proxy_id === 'down').length).toBeLessThan(20);

    await client.setLoggingLevel('info');
    await call('run', {cmd: 'exit 0', id: 'clean-again', mode: 'foreground'});
    expect(await eventually(() => heard.messages.find((message) => (message.data as {process_id?: string}).process_id === 'clean-again'), 30_000, 20)).toMatchObject({
      level: 'info',
      data: {message: 'process clean-again exited 0'},
    });

    const wrong = await refusal(client.request({method: 'logging/setLevel', params: {level: 'loud'}}, EmptyResultSchema));
    expect(wrong).toEqual({code: -32602, message: expect.stringMatching(/^Invalid params for logging\/setLevel: level: /)});
  });
});

describe('a lost daemon (items 2 and 4)', {timeout: 120_000}, () => {
  it('says the daemon was lost as a critical message, and tells the subscribers again once a tool call brings a new one', async () => {
    client = await connect();
    await client.subscribeResource({uri: 'workbench://incidents'});
    await call('run', {cmd: 'sleep 60', id: 'before'});
    const pid = killDaemon(sandbox.home, 'SIGKILL');
    expect(pid).toBeGreaterThan(0);
    const lost = await eventually(() => heard.messages.find((message) => message.level === 'critical'), 30_000, 20);
    expect(lost).toMatchObject({logger: 'workbench', data: {message: expect.stringMatching(/^lost the workbench daemon/)}});
    const listed = heard.listChanged;
    const seen = updatesOf('workbench://incidents');
    // The next tool call starts a new daemon: its processes, and so the lists, are new.
    await client.callTool({name: 'proc', arguments: {action: 'list'}});
    await eventually(() => heard.listChanged > listed && updatesOf('workbench://incidents') > seen, 30_000, 20);
    expect(daemonPid(sandbox.home)).not.toBe(pid);
  });
});

describe('prompts and completion (item 5)', {timeout: 120_000}, () => {
  it('builds both prompts with their resources embedded and completes process, proxy, script and incident names', async () => {
    client = await connect();
    const {prompts} = await client.listPrompts();
    expect(prompts.map((prompt) => [prompt.name, prompt.arguments?.map((argument) => [argument.name, argument.required])])).toEqual([
      ['fix-latest-incident', [['id', false]]],
      ['why-did-script-stop', [['script', true]]],
    ]);

    await call('run', {script_name: 'failing', mode: 'foreground'});
    const [incident] = await eventually(async () => (await incidents()).length > 0 && incidents());
    expect(incident!.message).toContain('port 4000 is taken');

    const fix = await client.getPrompt({name: 'fix-latest-incident'});
    expect(fix.messages[0]!.content).toMatchObject({type: 'text', text: expect.stringMatching(/^Explain the incident below/)});
    expect(fix.messages[1]!.content).toMatchObject({
      type: 'resource',
      resource: {uri: `workbench://incidents/${incident!.id}`, mimeType: 'text/plain', text: expect.stringContaining('port 4000 is taken by another server')},
    });
    // The incident came from a process: its output comes along.
    expect(fix.messages[2]!.content).toMatchObject({type: 'resource', resource: {uri: 'workbench://processes/failing/output', text: expect.stringMatching(/^failing: exited 2/)}});
    // A newer incident becomes the latest; the first one is still there by its id.
    await call('run', {cmd: `node -e "console.error('Error: the newest failure of all')"`, id: 'newer', mode: 'foreground'});
    await eventually(async () => (await incidents()).length > 1);
    const newest = await client.getPrompt({name: 'fix-latest-incident'});
    expect(newest.messages[1]!.content).toMatchObject({type: 'resource', resource: {text: expect.stringContaining('the newest failure of all')}});
    expect((await client.getPrompt({name: 'fix-latest-incident', arguments: {id: incident!.id}})).messages[1]).toEqual(fix.messages[1]);

    const why = await client.getPrompt({name: 'why-did-script-stop', arguments: {script: 'failing'}});
    expect(why.messages[0]!.content).toMatchObject({type: 'text', text: expect.stringContaining('): exited 2.')});
    expect(why.messages[1]!.content).toMatchObject({
      type: 'resource',
      resource: {uri: 'workbench://processes/failing/output', text: expect.stringContaining('port 4000 is taken')},
    });

    await call('proxy', {action: 'start', id: 'storefront', target: target.url});
    const values = async (ref: {type: 'ref/prompt'; name: string} | {type: 'ref/resource'; uri: string}, name: string, value: string) =>
      (await client!.complete({ref, argument: {name, value}})).completion.values;
    expect(await values({type: 'ref/prompt', name: 'why-did-script-stop'}, 'script', 'fa')).toEqual(['failing']);
    expect(await values({type: 'ref/prompt', name: 'why-did-script-stop'}, 'script', '')).toEqual(['hello', 'failing', 'newer']);
    expect(await values({type: 'ref/prompt', name: 'fix-latest-incident'}, 'id', incident!.id.slice(0, 3))).toEqual([incident!.id]);
    expect(await values({type: 'ref/resource', uri: 'workbench://processes/{id}/output'}, 'id', 'F')).toEqual(['failing']);
    expect(await values({type: 'ref/resource', uri: 'workbench://proxies/{id}/traffic'}, 'id', 'st')).toEqual(['storefront']);
    expect(await values({type: 'ref/resource', uri: 'workbench://proxies/{id}/pages'}, 'id', 'zz')).toEqual([]);

    expect(await refusal(client.getPrompt({name: 'summarize-everything'}))).toEqual({
      code: -32602,
      message: expect.stringMatching(/^unknown prompt "summarize-everything": the prompts are fix-latest-incident, why-did-script-stop$/),
    });
    expect(await refusal(client.getPrompt({name: 'why-did-script-stop'}))).toEqual({
      code: -32602,
      message: expect.stringMatching(/^the prompt why-did-script-stop needs the argument script/),
    });
    expect(await refusal(client.getPrompt({name: 'why-did-script-stop', arguments: {script: 'ghost'}}))).toEqual({
      code: -32602,
      message: expect.stringMatching(/^no process runs "ghost"/),
    });
    expect(await refusal(client.getPrompt({name: 'fix-latest-incident', arguments: {color: 'red'}}))).toEqual({
      code: -32602,
      message: expect.stringMatching(/has no argument "color"/),
    });
    expect(await refusal(client.complete({ref: {type: 'ref/resource', uri: 'workbench://nothing/{id}'}, argument: {name: 'id', value: ''}}))).toMatchObject({code: -32602});
    expect(await refusal(client.complete({ref: {type: 'ref/prompt', name: 'why-did-script-stop'}, argument: {name: 'colour', value: ''}}))).toMatchObject({code: -32602});
  });
});

describe('legacy mode (--no-daemon)', {timeout: 120_000}, () => {
  it('reads what it has without a daemon, refuses subscriptions and process resources clearly, and starts no daemon', async () => {
    client = await connect(['--no-daemon']);
    expect(await read('workbench://incidents')).toBe('=== Incidents (0) ===');
    expect(await read('workbench://project')).toMatch(/^hello +npm run hello/m);
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual(['workbench://incidents', 'workbench://project']);
    expect(await refusal(client.subscribeResource({uri: 'workbench://incidents'}))).toEqual({
      code: -32602,
      message: expect.stringMatching(/^subscriptions need the workbench daemon/),
    });
    expect(await refusal(client.readResource({uri: 'workbench://processes/web/output'}))).toMatchObject({code: -32603, message: expect.stringMatching(/^daemon not connected/)});
    expect((await client.getPrompt({name: 'fix-latest-incident'})).description).toBe('The inbox is empty');
    expect(daemonPid(sandbox.home)).toBeUndefined();
  });
});

describe('bad input', {timeout: 120_000}, () => {
  it('refuses unknown URIs, missing resources, wrong-typed params and the 1,001st subscription with clear errors, and keeps serving', async () => {
    client = await connect();
    const unknown = await refusal(client.readResource({uri: 'file:///etc/passwd'}));
    expect(unknown).toEqual({code: -32602, message: expect.stringMatching(/^unknown resource "file:\/\/\/etc\/passwd": the resources are workbench:\/\/incidents, /)});
    expect(await refusal(client.subscribeResource({uri: 'workbench://processes/web'}))).toMatchObject({code: -32602, message: expect.stringMatching(/^unknown resource/)});
    expect(await refusal(client.subscribeResource({uri: 'workbench://project'}))).toMatchObject({code: -32602, message: expect.stringMatching(/is not watched/)});
    expect(await refusal(client.readResource({uri: 'workbench://processes/ghost/output'}))).toMatchObject({code: -32002, message: expect.stringContaining('ghost')});
    expect(await refusal(client.readResource({uri: 'workbench://incidents/nope'}))).toMatchObject({code: -32002, message: expect.stringMatching(/^incident "nope" not found/)});
    expect(await refusal(client.readResource({uri: 'workbench://proxies/ghost/traffic'}))).toMatchObject({code: -32002});
    expect(await refusal(client.readResource({uri: 'workbench://processes/%E0%A4%A/output'}))).toMatchObject({code: -32602});

    for (const [method, params, field] of [
      ['resources/read', {uri: 5}, 'uri'],
      ['resources/subscribe', {}, 'uri'],
      ['resources/unsubscribe', {uri: ['workbench://incidents']}, 'uri'],
      ['prompts/get', {name: 7}, 'name'],
      ['completion/complete', {ref: {type: 'ref/tool', name: 'x'}, argument: {name: 'id', value: ''}}, 'ref'],
      ['resources/list', {cursor: 12}, 'cursor'],
    ] as const) {
      const answer = await refusal(client.request({method, params: params as Record<string, unknown>}, EmptyResultSchema));
      expect(answer, method).toEqual({code: -32602, message: expect.stringMatching(new RegExp(`^Invalid params for ${method}: ${field}`))});
    }

    // 10,000 subscriptions: the first 1,000 are held, every other is refused, and the server goes on.
    const answers: PromiseSettledResult<unknown>[] = [];
    // Sent 500 at a time, so the client's own pipe does not queue 10,000 writes at once.
    for (let start = 0; start < 10_000; start += 500)
      answers.push(...(await Promise.allSettled(Array.from({length: 500}, (_, i) => client!.subscribeResource({uri: `workbench://processes/p${start + i}/output`})))));
    expect(answers.filter((answer) => answer.status === 'fulfilled')).toHaveLength(1000);
    const refused = answers.filter((answer): answer is PromiseRejectedResult => answer.status === 'rejected');
    expect(refused).toHaveLength(9000);
    expect(new Set(refused.map((answer) => (answer.reason as Error).message))).toEqual(
      new Set(['MCP error -32602: too many subscriptions: a client may hold 1000; unsubscribe from some first (resources/unsubscribe)']),
    );
    // Subscribing again to a held one costs nothing; one freed makes room for one more.
    await client.subscribeResource({uri: 'workbench://processes/p0/output'});
    await client.unsubscribeResource({uri: 'workbench://processes/p1/output'});
    await client.subscribeResource({uri: 'workbench://incidents'});
    expect(await refusal(client.subscribeResource({uri: 'workbench://processes/p1/output'}))).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^too many subscriptions/),
    });
    expect((await client.listResources()).resources[0]!.uri).toBe('workbench://incidents');
  });
});
