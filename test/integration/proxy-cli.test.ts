import {mkdirSync, writeFileSync} from 'node:fs';
import {createServer} from 'node:net';
import {join} from 'node:path';
import type {AddressInfo} from 'node:net';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {DaemonClient} from '../../source/daemon/client.js';
import {daemonSocketPath} from '../../source/core/paths.js';
import type {ProxyInfo, TrafficEntry} from '../../source/devproxy/types.js';
import {makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';
import {connectPage, type FakePage} from '../helpers/page-client.js';
import {closedPort, startTargetApp, type TargetApp} from '../helpers/target-app.js';

/** The dev proxy's CLI face over the real daemon and the real proxy, in front of a real target server (issue 8 items 1, 4, 5, 6). */

let sandbox: Sandbox;
let target: TargetApp;
const pages: FakePage[] = [];
const cli = (args: string[]) => runCli(args, {env: sandbox.env, timeoutMs: 30_000});
const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);

async function startProxy(id: string, extra: string[] = []): Promise<ProxyInfo> {
  const started = await cli(['proxy', 'start', id, '--target', target.url, '--json', ...extra]);
  expect(started.code, started.stderr).toBe(0);
  return JSON.parse(started.stdout) as ProxyInfo;
}

beforeEach(async () => {
  sandbox = makeSandbox('wb-proxy-');
  target = await startTargetApp();
});

afterEach(async () => {
  await Promise.all(pages.splice(0).map((page) => page.close()));
  await target.close();
  await sandbox.cleanup();
});

// Each test runs the built CLI several times (about a second each on a loaded 2-core machine).
describe('workbench proxy', {timeout: 120_000}, () => {
  it('starts a proxy the app works through, lists it and stops it', async () => {
    const started = await cli(['proxy', 'start', 'app', '--target', target.url]);
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toMatch(/^started proxy app: http:\/\/127\.0\.0\.1:\d+ → http:\/\/127\.0\.0\.1:\d+/);
    const url = /(http:\/\/127\.0\.0\.1:\d+) →/.exec(started.stdout)![1]!;

    const page = await fetch(`${url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('hello from the target');
    const api = await fetch(`${url}/api/ok`);
    expect(await api.json()).toEqual({ok: true});

    const listed = await cli(['proxy', 'list', '--json']);
    const proxies = JSON.parse(listed.stdout) as ProxyInfo[];
    expect(proxies.map((info) => [info.id, info.url, info.target])).toEqual([['app', url, target.url]]);
    expect(proxies[0]!.requests).toBeGreaterThanOrEqual(2);
    expect((await cli(['proxy', 'list'])).stdout).toMatch(/^ID\s+URL\s+TARGET.*\napp\s+http:\/\/127\.0\.0\.1:\d+\s+http:\/\/127\.0\.0\.1:\d+/);
    // `proxy` alone is `proxy list`.
    expect((await cli(['proxy'])).stdout).toMatch(/\napp\s+http/);
    expect((await cli(['proxy', 'status', 'app'])).stdout).toMatch(/^app: http:\/\/127\.0\.0\.1:\d+ → .*\nup \d+s; \d+ requests/);

    const again = await cli(['proxy', 'start', 'app', '--target', target.url]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^workbench: proxy "app" is already running at http:\/\/127\.0\.0\.1:\d+/);

    const stopped = await cli(['proxy', 'stop', 'app']);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stdout).toMatch(/^stopped proxy app after \d+ requests/);
    expect(JSON.parse((await cli(['proxy', 'list', '--json'])).stdout)).toEqual([]);
    await expect(fetch(`${url}/`)).rejects.toThrow();
  });

  it('puts a 500 with a JSON message into get-errors as proxy:http, and not a missing favicon', async () => {
    const proxy = await startProxy('app');
    expect((await fetch(`${proxy.url}/api/boom`)).status).toBe(500);
    expect((await fetch(`${proxy.url}/favicon.ico`)).status).toBe(404);

    const errors = await cli(['get-errors', '--raw']);
    expect(errors.code, errors.stderr).toBe(0);
    const entries = JSON.parse(errors.stdout) as Array<{source: string; severity: string; message: string}>;
    expect(entries.filter((entry) => entry.source === 'proxy:http')).toEqual([
      expect.objectContaining({severity: 'error', message: expect.stringMatching(/^GET \/api\/boom.*database connection refused by the test/)}),
    ]);
    expect(JSON.stringify(entries)).not.toContain('favicon');

    const compact = await cli(['get-errors', '--proxy-id', 'app']);
    expect(compact.stdout).toMatch(/\[proxy:http\] 500.*\nGET \/api\/boom → database connection refused by the test/);
  });

  it('filters the traffic log by type, status, path, since and limit', async () => {
    const proxy = await startProxy('app');
    for (const path of ['/', '/api/ok', '/api/boom', '/nothing-here']) await (await fetch(`${proxy.url}${path}`)).arrayBuffer();

    const all = JSON.parse((await cli(['proxylog', 'app', '--raw'])).stdout) as TrafficEntry[];
    const http = all.filter((entry) => entry.type === 'http');
    expect(http.map((entry) => entry.url)).toEqual(['/', '/api/ok', '/api/boom', '/nothing-here']);
    expect(http[2]).toMatchObject({method: 'GET', status: 500, responseHeaders: expect.objectContaining({'content-type': 'application/json'})});

    const failed = await cli(['proxylog', 'app', '--types', 'http', '--status', '404,500']);
    expect(failed.code, failed.stderr).toBe(0);
    const lines = failed.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} http\s+500 GET \/api\/boom\s+\d+ ms/);
    expect(lines[1]).toMatch(/ 404 GET \/nothing-here /);

    const byPath = JSON.parse((await cli(['proxylog', 'app', '--path', '/api/', '--json'])).stdout) as TrafficEntry[];
    expect(byPath.map((entry) => (entry.type === 'http' ? entry.url : entry.type))).toEqual(['/api/ok', '/api/boom']);

    const newest = JSON.parse((await cli(['proxylog', 'app', '--types', 'http', '--limit', '1', '--raw'])).stdout) as TrafficEntry[];
    expect(newest.map((entry) => (entry.type === 'http' ? entry.url : ''))).toEqual(['/nothing-here']);
    const limited = await cli(['proxylog', 'app', '--types', 'http', '--limit', '1']);
    expect(limited.stdout).toContain('[older entries left out: raise limit (e.g. --limit 10) or narrow with --types, --status, --since or --path]');

    expect(JSON.parse((await cli(['proxylog', 'app', '--since', '5m', '--types', 'http', '--raw'])).stdout)).toHaveLength(4);
    const future = new Date(Date.now() + 30_000).toISOString();
    expect((await cli(['proxylog', 'app', '--since', future])).stdout).toBe('no matching entries in the log of app\n');
  });

  it('lists a connected page and runs code in it; without a page, exec says so', async () => {
    const proxy = await startProxy('app');
    const none = await cli(['proxy', 'exec', 'app', '--code', 'document.title']);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^workbench: .*page/);
    expect(none.stderr.trim().split('\n')).toHaveLength(1);

    const empty = await cli(['currentpage', 'app']);
    expect(empty.stdout).toContain('no page has connected yet');

    const page = await connectPage(proxy.url, {title: 'Checkout', url: `${proxy.url}/checkout`});
    pages.push(page);
    const sessions = await waitForPages('app', 1);
    expect(sessions[0]).toMatchObject({session: page.session, url: `${proxy.url}/checkout`, title: 'Checkout', connected: true});
    expect((await cli(['currentpage'])).stdout).toMatch(/=== app \(http:\/\/127\.0\.0\.1:\d+\): 1 page ===\n\nCheckout — http:\/\/127\.0\.0\.1:\d+\/checkout\nsession tab-/);

    const title = await cli(['proxy', 'exec', 'app', '--code', 'document.title']);
    expect(title.code, title.stderr).toBe(0);
    expect(title.stdout).toBe(`[${page.session}] ${proxy.url}/checkout\n"Checkout"\n`);
    const json = JSON.parse((await cli(['proxy', 'exec', 'app', '--code', '({a: [1, 2]})', '--json'])).stdout);
    expect(json).toEqual([{session: page.session, url: `${proxy.url}/checkout`, ok: true, value: {a: [1, 2]}}]);
    // Code that throws fails the command: exit 1, the page's error in one line ({"error"} with --json).
    const thrown = await cli(['proxy', 'exec', 'app', '--code', 'null.x']);
    expect(thrown.code).toBe(1);
    expect(thrown.stdout).toBe('');
    expect(thrown.stderr).toMatch(new RegExp(`^workbench: page ${page.session} \\(${proxy.url}/checkout\\): TypeError: Cannot read properties of null[^\n]*\n$`));
    const thrownJson = await cli(['proxy', 'exec', 'app', '--code', 'null.x', '--json']);
    expect(thrownJson.code).toBe(1);
    expect(JSON.parse(thrownJson.stdout)).toEqual({error: expect.stringMatching(/^page tab-.*: TypeError: Cannot read properties of null/)});

    page.freeze();
    const stuck = await cli(['proxy', 'exec', 'app', '--code', 'document.title', '--timeout', '300']);
    expect(stuck.code).toBe(1);
    expect(stuck.stderr).toBe(`workbench: page ${page.session} (${proxy.url}/checkout): the page did not answer within 300 ms\n`);
  });

  it('starts a proxy .workbench.kdl declares with its target; an explicit --target wins; an undeclared id says so', async () => {
    const project = join(sandbox.dir, 'project');
    mkdirSync(project);
    const down = `http://127.0.0.1:${await closedPort()}`;
    writeFileSync(join(project, '.workbench.kdl'), `proxies {\n  web {\n    target "${target.url}"\n  }\n  api {\n    target "${down}"\n  }\n}\n`);
    const here = (args: string[]) => runCli(args, {env: sandbox.env, cwd: project, timeoutMs: 30_000});

    const web = await here(['proxy', 'start', 'web']);
    expect(web.code, web.stderr).toBe(0);
    expect(web.stdout).toContain(`→ ${target.url}`);
    const url = /(http:\/\/127\.0\.0\.1:\d+) →/.exec(web.stdout)![1]!;
    expect(await (await fetch(`${url}/`)).text()).toContain('hello from the target');

    const api = await here(['proxy', 'start', 'api', '--target', target.url, '--json']);
    expect(api.code, api.stderr).toBe(0);
    expect((JSON.parse(api.stdout) as ProxyInfo).target).toBe(target.url);

    const ghost = await here(['proxy', 'start', 'ghost']);
    expect(ghost.code).toBe(1);
    expect(ghost.stderr).toBe(
      `workbench: --target is required: proxy "ghost" is not declared in ${join(project, '.workbench.kdl')}; e.g. workbench proxy start ghost --target http://127.0.0.1:3000\n`,
    );
  });

  it('starts a proxy whose target is down; it answers 502 until the target comes up', async () => {
    const port = await closedPort();
    const started = await cli(['proxy', 'start', 'down', '--target', `http://127.0.0.1:${port}`, '--json']);
    expect(started.code, started.stderr).toBe(0);
    const proxy = JSON.parse(started.stdout) as ProxyInfo;
    const answer = await fetch(`${proxy.url}/`);
    expect(answer.status).toBe(502);
    const log = JSON.parse((await cli(['proxylog', 'down', '--types', 'diagnostic', '--raw'])).stdout) as TrafficEntry[];
    expect(log.length).toBeGreaterThan(0);
  });

  it('names a taken port, and takes the next free one when asked', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const taken = await cli(['proxy', 'start', 'app', '--target', target.url, '--port', String(port)]);
      expect(taken.code).toBe(1);
      expect(taken.stderr).toContain(String(port));
      expect(taken.stderr).toMatch(/in use|EADDRINUSE/);
      noStack(taken.stderr);
      const next = await startProxy('app', ['--port', String(port), '--next-free']);
      expect(next.port).toBeGreaterThan(port);
    } finally {
      blocker.close();
    }
  });

  it('answers an unknown proxy id with the spec error on every face', async () => {
    const faces = [
      ['proxy', 'stop', 'ghost'],
      ['proxy', 'status', 'ghost'],
      ['proxy', 'exec', 'ghost', '--code', '1'],
      ['proxylog', 'ghost'],
      ['currentpage', 'ghost'],
      ['get-errors', '--proxy-id', 'ghost'],
    ];
    // Independent commands: run side by side (the first to reach the daemon starts it, once).
    const results = await Promise.all(faces.map((args) => cli(args)));
    for (const [index, args] of faces.entries()) {
      const result = results[index]!;
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr, args.join(' ')).toBe('workbench: proxy "ghost" not found: no proxy is running\n');
    }
    await startProxy('app');
    expect((await cli(['proxylog', 'ghost'])).stderr).toBe('workbench: proxy "ghost" not found: running proxies: app\n');
  });

  it('pushes proxies and traffic events to a subscribed daemon client', async () => {
    await cli(['proxy', 'list']);
    const client = await DaemonClient.connect(daemonSocketPath(sandbox.home));
    try {
      const changes: Array<{id: string; running: boolean}> = [];
      const traffic: TrafficEntry[] = [];
      await client.subscribe('proxies', ({proxy, running}) => changes.push({id: proxy.id, running}));
      await client.subscribe('traffic', ({proxyId, entries}) => proxyId === 'app' && traffic.push(...entries));
      const proxy = await startProxy('app');
      await (await fetch(`${proxy.url}/api/boom`)).arrayBuffer();
      await expect.poll(() => traffic.some((entry) => entry.type === 'http' && entry.status === 500), {timeout: 15_000}).toBe(true);
      await cli(['proxy', 'stop', 'app']);
      await expect
        .poll(() => changes, {timeout: 15_000})
        .toEqual([
          {id: 'app', running: true},
          {id: 'app', running: false},
        ]);
    } finally {
      client.close();
    }
  });

  it('stops its proxies when the daemon stops', async () => {
    const proxy = await startProxy('app');
    expect((await fetch(`${proxy.url}/`)).status).toBe(200);
    const stopped = await cli(['daemon', 'stop']);
    expect(stopped.code, stopped.stderr).toBe(0);
    await expect
      .poll(
        () =>
          fetch(`${proxy.url}/`).then(
            () => 'up',
            () => 'down',
          ),
        {timeout: 15_000},
      )
      .toBe('down');
  });

  it('prints the reference of window.__devtool, every function once', async () => {
    const reference = await cli(['proxy', 'primitives']);
    expect(reference.code, reference.stderr).toBe(0);
    const functions = reference.stdout.split('\n').filter((line) => line.startsWith('- `'));
    expect(functions.length).toBeGreaterThanOrEqual(50);
    expect(reference.stdout).toContain('`getElementInfo(');
    const listed = JSON.parse((await cli(['proxy', 'primitives', '--json'])).stdout) as Array<{name: string}>;
    expect(listed.map((entry) => entry.name)).toContain('log');
    expect(listed).toHaveLength(functions.length);
  });

  it('refuses garbage in every flag with one clear line and exit 1', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['proxy', 'start', 'a b', '--target', target.url], /--id|proxy id/],
      [['proxy', 'start', 'app'], /--target is required: proxy "app" is not declared: there is no .*\.workbench\.kdl/],
      [['proxy', 'start', 'app', '--target', 'ftp://example.com'], /--target.*http\(s\) URL/],
      [['proxy', 'start', 'app', '--target', 'not a url'], /--target.*http\(s\) URL/],
      [['proxy', 'start', 'app', '--target', target.url, '--port', 'eighty'], /--port must be a whole number/],
      [['proxy', 'start', 'app', '--target', target.url, '--port', '70000'], /--port must be 65535 or less/],
      [['proxy', 'start', 'app', '--target', target.url, '--log-size', '0'], /--log-size must be 1 or more/],
      [['proxy', 'exec', 'app'], /--code is required/],
      [['proxy', 'exec', 'app', '--code', '1', '--timeout', 'soon'], /--timeout must be a whole number/],
      [['proxy', 'exec', 'app', '--code', '1', '--timeout', '0'], /--timeout must be 1 or more/],
      [['proxylog', 'app', '--types', 'http,bogus'], /--types: unknown type "bogus"/],
      [['proxylog', 'app', '--types', ','], /--types needs at least one value/],
      [['proxylog', 'app', '--status', 'teapot'], /--status must be a whole number/],
      [['proxylog', 'app', '--status', '1000'], /--status: 1000 is no HTTP status/],
      [['proxylog', 'app', '--since', 'yesterday'], /invalid since "yesterday"/],
      [['proxylog', 'app', '--limit', '0'], /--limit must be 1 or more/],
      [['proxylog', 'bad id!'], /proxy-id|proxy_id/],
      [['currentpage', 'bad id!'], /proxy-id|proxy_id/],
    ];
    // Independent commands: run side by side.
    const results = await Promise.all(cases.map(([args]) => cli(args)));
    for (const [index, [args, message]] of cases.entries()) {
      const result = results[index]!;
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr, args.join(' ')).toMatch(message);
      expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      noStack(result.stderr);
    }
  });
});

/** The pages `currentpage <id> --json` shows, once `count` of them are there. */
async function waitForPages(id: string, count: number) {
  let sessions: Array<Record<string, unknown>> = [];
  await expect
    .poll(
      async () => {
        const result = await cli(['currentpage', id, '--json']);
        sessions = (JSON.parse(result.stdout) as Array<{pages: Array<Record<string, unknown>>}>)[0]?.pages ?? [];
        return sessions.length;
      },
      {timeout: 15_000},
    )
    .toBe(count);
  return sessions;
}
