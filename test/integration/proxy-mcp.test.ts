import {existsSync, mkdirSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import type {ProxyInfo, TrafficEntry} from '../../source/devproxy/types.js';
import {cliPath, daemonPid, makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';
import {connectPage, type FakePage} from '../helpers/page-client.js';
import {closedPort, startTargetApp, type TargetApp} from '../helpers/target-app.js';

/** The proxy, proxylog and currentpage tools through the official MCP client, over the real daemon and proxy (issue 8 items 1, 4–6, 8, 11). */

let sandbox: Sandbox;
let project: string;
let target: TargetApp;
let client: Client | undefined;
const pages: FakePage[] = [];

type Answer = {content: Array<{type: string; text: string}>; structuredContent?: Record<string, unknown>; isError?: boolean};
const first = (answer: Answer) => answer.content[0]!.text;
const all = (answer: Answer) => answer.content.map((part) => part.text).join('\n');
const call = (name: string, args: Record<string, unknown> = {}) => client!.callTool({name, arguments: args}) as Promise<Answer>;
const errorOf = (answer: Answer) => {
  expect(answer.isError, first(answer)).toBe(true);
  return (JSON.parse(first(answer)) as {error: string}).error;
};

async function connect(args: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'mcp', ...args],
    cwd: project,
    env: sandbox.env as Record<string, string>,
    stderr: 'pipe',
  });
  const mcp = new Client({name: 'workbench-test', version: '1.0.0'});
  await mcp.connect(transport);
  return mcp;
}

async function started(answer: Answer): Promise<ProxyInfo> {
  expect(answer.isError, first(answer)).toBeFalsy();
  return (answer.structuredContent as {proxy: ProxyInfo}).proxy;
}

beforeEach(async () => {
  sandbox = makeSandbox('wb-proxy-mcp-');
  project = join(sandbox.dir, 'project');
  mkdirSync(project);
  target = await startTargetApp();
});

afterEach(async () => {
  await Promise.all(pages.splice(0).map((page) => page.close()));
  await client?.close();
  client = undefined;
  await target.close();
  await sandbox.cleanup();
});

describe('proxy tools', {timeout: 120_000}, () => {
  it('start (target_url), proxylog, get_errors, currentpage and exec answer through the daemon', async () => {
    client = await connect();
    const {tools} = await client.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(byName.proxylog!.annotations).toMatchObject({readOnlyHint: true});
    expect(byName.currentpage!.annotations).toMatchObject({readOnlyHint: true});
    expect(byName.proxy!.annotations).toMatchObject({readOnlyHint: false, destructiveHint: true});
    const props = byName.proxylog!.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(props.limit).toMatchObject({type: 'integer', default: 100});
    expect((props.types!.items as Record<string, unknown>).enum).toEqual(['http', 'error', 'custom', 'diagnostic', 'page']);
    expect(byName.proxylog!.inputSchema.required).toEqual(['proxy_id']);

    const proxy = await started(await call('proxy', {action: 'start', id: 'app', target_url: target.url}));
    expect(proxy).toMatchObject({id: 'app', target: target.url});
    expect((await fetch(`${proxy.url}/api/boom`)).status).toBe(500);
    expect((await fetch(`${proxy.url}/favicon.ico`)).status).toBe(404);

    const errors = await call('get_errors', {proxy_id: 'app'});
    expect(first(errors)).toMatch(/=== Errors \(1\) ===\n\n\[proxy:http\] 500.*\nGET \/api\/boom → database connection refused by the test/);
    expect(first(errors)).not.toContain('favicon');
    // The daemon's CLI sees the same proxy.
    expect(JSON.parse((await runCli(['proxy', 'list', '--json'], {env: sandbox.env})).stdout).map((info: ProxyInfo) => info.id)).toEqual(['app']);

    const log = await call('proxylog', {proxy_id: 'app', types: ['http'], status_codes: [500]});
    expect(first(log)).toMatch(/^\d\d:\d\d:\d\d\.\d{3} http\s+500 GET \/api\/boom/);
    expect((log.structuredContent!.entries as TrafficEntry[]).map((entry) => entry.type === 'http' && entry.status)).toEqual([500]);
    const raw = await call('proxylog', {proxy_id: 'app', raw: true, path: 'favicon'});
    expect((JSON.parse(first(raw)) as TrafficEntry[]).map((entry) => entry.type === 'http' && entry.url)).toEqual(['/favicon.ico']);

    expect(first(await call('currentpage', {}))).toContain('no page has connected yet');
    expect(errorOf(await call('proxy', {action: 'exec', id: 'app', code: 'document.title'}))).toMatch(/page/);
    const page = await connectPage(proxy.url, {title: 'Dashboard'});
    pages.push(page);
    await expect.poll(async () => first(await call('currentpage', {proxy_id: 'app'})), {timeout: 15_000}).toContain('Dashboard —');
    const exec = await call('proxy', {action: 'exec', id: 'app', code: 'document.title'});
    expect(exec.structuredContent).toMatchObject({action: 'exec', id: 'app', results: [{session: page.session, ok: true, value: 'Dashboard'}]});
    expect(exec.isError).toBeFalsy();
    // Code that throws in the page fails the call (isError), and the page's error comes back with it.
    const thrown = await call('proxy', {action: 'exec', id: 'app', code: 'document.title.nope.deeper'});
    expect(thrown.isError).toBe(true);
    expect(thrown.structuredContent).toMatchObject({action: 'exec', results: [{session: page.session, ok: false, error: expect.stringMatching(/TypeError/)}]});

    // A value too long for the answer goes to a file; the answer says where.
    const huge = await call('proxy', {action: 'exec', id: 'app', code: "'x'.repeat(50000)"});
    expect(first(huge)).toMatch(/^exec in 1 page\(s\) of app: 1 answered, 0 threw; the values are too long to show here\n\[the whole answer is in (\S+)\]/);
    const file = huge.structuredContent!.file as string;
    expect((JSON.parse(readFileSync(file, 'utf8')) as Array<{value: string}>)[0]!.value).toHaveLength(50_000);

    const stopped = await call('proxy', {action: 'stop', id: 'app'});
    expect(first(stopped)).toMatch(/^stopped proxy app/);
    expect(first(await call('proxy', {action: 'list'}))).toMatch(/^No proxy is running/);
  });

  it('writes a log too long for the answer to a file under WORKBENCH_HOME and answers a summary with its path', async () => {
    client = await connect();
    const proxy = await started(await call('proxy', {action: 'start', id: 'busy', target: target.url}));
    const long = 'x'.repeat(200);
    for (let index = 0; index < 150; index += 1) await (await fetch(`${proxy.url}/api/ok?n=${index}&pad=${long}`)).arrayBuffer();
    const answer = await call('proxylog', {proxy_id: 'busy', limit: 1000});
    const text = first(answer);
    expect(text.length).toBeLessThan(20_000);
    expect(text).toMatch(/^150 entries \(http 150\) from .* statuses 200×150/);
    const file = /are in (\S+)\]/.exec(text)![1]!;
    expect(file.startsWith(join(sandbox.home, 'answers'))).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const whole = JSON.parse(readFileSync(file, 'utf8')) as TrafficEntry[];
    expect(whole).toHaveLength(150);
    expect(answer.structuredContent!.file).toBe(file);
    // The CLI is not an agent: it prints the whole log.
    expect((await runCli(['proxylog', 'busy', '--limit', '1000'], {env: sandbox.env})).stdout.trim().split('\n')).toHaveLength(150);
  });

  it('answers bad arguments and unknown ids with one {error}', async () => {
    client = await connect();
    expect(errorOf(await call('proxy', {action: 'explode'}))).toMatch(/^action must be one of "list", "start", "stop", "status", "exec", not "explode"\.$/);
    expect(errorOf(await call('proxy', {action: 'start', id: 'app'}))).toBe(
      `proxy start needs a target: proxy "app" is not declared: there is no ${join(project, '.workbench.kdl')}; e.g. {"action": "start", "id": "app", "target": "http://127.0.0.1:3000"}.`,
    );
    expect(errorOf(await call('proxy', {action: 'start', id: 'app', target: 'javascript:alert(1)'}))).toMatch(/^target: use an absolute http\(s\) URL/);
    expect(errorOf(await call('proxy', {action: 'start', id: 'app', target: target.url, target_url: 'http://127.0.0.1:1'}))).toMatch(/not two different addresses/);
    expect(errorOf(await call('proxy', {action: 'start', id: 'has space', target: target.url}))).toMatch(/^id: use 1–64 letters/);
    expect(errorOf(await call('proxy', {action: 'start', id: 'app', target: target.url, port: -1}))).toBe('port must be 0 or more, not -1.');
    expect(errorOf(await call('proxy', {action: 'start', id: 'app', target: target.url, port: 'http'}))).toBe('port must be a number, not "http".');
    expect(errorOf(await call('proxy', {action: 'exec', id: 'app'}))).toMatch(/needs code/);
    expect(errorOf(await call('proxy', {action: 'exec', id: 'app', code: '1', timeout_ms: 0}))).toBe('timeout_ms must be 1 or more, not 0.');
    expect(errorOf(await call('proxy', {action: 'stop'}))).toMatch(/needs an id/);
    expect(errorOf(await call('proxy', {action: 'list', colour: 'red'}))).toBe('Unknown argument colour.');
    expect(errorOf(await call('proxylog', {}))).toBe('proxy_id is required.');
    expect(errorOf(await call('proxylog', {proxy_id: 'app', types: ['http', 'nope']}))).toBe('types must be one of "http", "error", "custom", "diagnostic", "page", not "nope".');
    expect(errorOf(await call('proxylog', {proxy_id: 'app', status_codes: ['500']}))).toBe('status_codes must be a number, not "500".');
    expect(errorOf(await call('proxylog', {proxy_id: 'app', limit: 0}))).toBe('limit must be 1 or more, not 0.');
    expect(errorOf(await call('proxylog', {proxy_id: 'app', since: 'last week'}))).toMatch(/^invalid since "last week"/);
    expect(errorOf(await call('currentpage', {proxy_id: 7}))).toBe('proxy_id must be a string, not 7.');
    for (const [name, args] of [
      ['proxy', {action: 'stop', id: 'ghost'}],
      ['proxy', {action: 'status', id: 'ghost'}],
      ['proxylog', {proxy_id: 'ghost'}],
      ['currentpage', {proxy_id: 'ghost'}],
      ['get_errors', {proxy_id: 'ghost'}],
    ] as const) {
      expect(errorOf(await call(name, args)), name).toBe('proxy "ghost" not found: no proxy is running');
    }
  });
});

describe('autostart and legacy mode', {timeout: 120_000}, () => {
  it('starts the proxies marked autostart when the MCP server initializes, also with the target down', async () => {
    const down = await closedPort();
    writeFileSync(
      join(project, '.workbench.kdl'),
      `proxies {\n  app {\n    target "${target.url}"\n    autostart true\n  }\n  later {\n    target "http://127.0.0.1:${down}"\n    autostart true\n  }\n  manual {\n    target "${target.url}"\n  }\n}\n`,
    );
    client = await connect();
    const answer = await call('proxy', {action: 'list'});
    const proxies = (answer.structuredContent as {proxies: ProxyInfo[]}).proxies;
    expect(proxies.map((info) => info.id).sort()).toEqual(['app', 'later']);
    expect(all(answer)).toMatch(/\[workbench\] autostarted proxy app: open http:\/\/127\.0\.0\.1:\d+ \(forwards to http:\/\/127\.0\.0\.1:\d+\)/);
    const app = proxies.find((info) => info.id === 'app')!;
    expect(await (await fetch(`${app.url}/`)).text()).toContain('hello from the target');
    expect((await fetch(`${proxies.find((info) => info.id === 'later')!.url}/`)).status).toBe(502);
    // A declared proxy that does not autostart starts with its declared target when asked without one.
    const manual = await started(await call('proxy', {action: 'start', id: 'manual'}));
    expect(manual.target).toBe(target.url);
    expect(await (await fetch(`${manual.url}/`)).text()).toContain('hello from the target');
    expect(errorOf(await call('proxy', {action: 'start', id: 'ghost'}))).toMatch(/^proxy start needs a target: proxy "ghost" is not declared in .*\.workbench\.kdl; e\.g\./);
    expect((await call('proxy', {action: 'stop', id: 'manual'})).isError).toBeFalsy();

    // A second session starts nothing twice.
    await client.close();
    client = await connect();
    const again = await call('proxy', {action: 'list'});
    expect((again.structuredContent as {proxies: ProxyInfo[]}).proxies.map((info) => info.url).sort()).toEqual(proxies.map((info) => info.url).sort());
    expect(all(again)).not.toContain('autostarted proxy');
  });

  it('--no-daemon owns its proxies in-process: their errors reach get_errors, and no daemon starts', async () => {
    writeFileSync(join(project, '.workbench.kdl'), `proxies {\n  app {\n    target "${target.url}"\n    autostart true\n  }\n}\n`);
    client = await connect(['--no-daemon']);
    const list = await call('proxy', {action: 'list'});
    const app = (list.structuredContent as {proxies: ProxyInfo[]}).proxies[0]!;
    expect(app.id).toBe('app');
    const second = await started(await call('proxy', {action: 'start', id: 'second', target: target.url}));
    expect((await fetch(`${app.url}/api/boom`)).status).toBe(500);
    expect((await fetch(`${second.url}/api/boom/second`)).status).toBe(500);
    const errors = await call('get_errors', {raw: true});
    const entries = JSON.parse(first(errors)) as Array<{source: string; message: string}>;
    expect(entries.map((entry) => entry.source)).toEqual(['proxy:http', 'proxy:http']);
    expect(first(await call('get_errors', {proxy_id: 'second'}))).toContain('GET /api/boom/second');
    expect(errorOf(await call('get_errors', {proxy_id: 'ghost'}))).toBe('proxy "ghost" not found: running proxies: app, second');
    expect(daemonPid(sandbox.home)).toBeUndefined();
    expect(existsSync(join(sandbox.home, 'daemon.sock'))).toBe(false);

    // The session's proxies end with it.
    await client.close();
    client = undefined;
    await expect
      .poll(
        () =>
          fetch(`${app.url}/`).then(
            () => 'up',
            () => 'down',
          ),
        {timeout: 15_000},
      )
      .toBe('down');
  });
});
