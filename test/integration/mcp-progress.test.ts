import {execFileSync} from 'node:child_process';
import {existsSync, mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import {CallToolResultSchema, ProgressNotificationSchema, type ProgressNotification} from '@modelcontextprotocol/sdk/types.js';
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest';
import {cliPath, eventually, makeSandbox, repoRoot, runCli, type Sandbox} from '../helpers/cli.js';
import {requirePackage} from '../helpers/system-package.js';
import {connectPage, type FakePage} from '../helpers/page-client.js';
import {closedPort} from '../helpers/target-app.js';
import {startTestPages, type TestPages} from '../helpers/test-pages.js';

/**
 * Issue 29 item 3 through the official SDK client over stdio, on the real daemon, real processes
 * and a real browser: progress notifications of the tools that wait (run with wait_port or in the
 * foreground, proxy start, snapshot), cancellation of a wait, and bad progress tokens.
 */

const hasChromium = !requirePackage('chromium', {for: 'the progress of a snapshot baseline'});
const lateServer = join(repoRoot, 'fixtures/devservers/late-server.mjs');

let sandbox: Sandbox;
let project: string;
let client: Client | undefined;
let serverPid: number | undefined;
/** Every notifications/progress the client heard, whatever its token. */
let progress: ProgressNotification['params'][];
/** What the client's protocol layer complained about (a response to a request it no longer waits for, say). */
let clientErrors: string[];

type Answer = {content: Array<{type: string; text: string}>; structuredContent?: Record<string, unknown>; isError?: boolean};

async function connect(): Promise<Client> {
  const transport = new StdioClientTransport({command: process.execPath, args: [cliPath, 'mcp'], cwd: project, env: sandbox.env as Record<string, string>, stderr: 'pipe'});
  const mcp = new Client({name: 'workbench-progress-test', version: '1.0.0'});
  // Replaces the SDK's own routing of progress to request callbacks: the test hears every token, asked for or not.
  mcp.setNotificationHandler(ProgressNotificationSchema, (notification) => void progress.push(notification.params));
  mcp.onerror = (error) => void clientErrors.push(error.message);
  await mcp.connect(transport);
  serverPid = transport.pid ?? undefined;
  return mcp;
}

/** A tools/call with `_meta` as given (a progress token of the test's choosing), cancellable through `signal`. */
const callWith = (name: string, args: Record<string, unknown>, meta?: Record<string, unknown>, signal?: AbortSignal) =>
  client!.request({method: 'tools/call', params: {name, arguments: args, ...(meta ? {_meta: meta} : {})}}, CallToolResultSchema, {signal, timeout: 120_000}) as Promise<Answer>;
const ok = async (answer: Promise<Answer>) => {
  const done = await answer;
  expect(done.isError, done.content[0]?.text).toBeFalsy();
  return done;
};
const heard = (token: string | number) => progress.filter((one) => one.progressToken === token);
const expectIncreasing = (updates: ProgressNotification['params'][]) => {
  for (let index = 1; index < updates.length; index += 1) expect(updates[index]!.progress).toBeGreaterThan(updates[index - 1]!.progress);
};
/** The names of the processes below the MCP server (a Chromium it launched, say). */
const descendants = (root: number): string[] => {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,comm='], {encoding: 'utf8'})
    .trim()
    .split('\n')
    .map((row) => row.trim().split(/\s+/));
  const found: string[] = [];
  const visit = (pid: string) => {
    for (const [child, parent, name] of rows) {
      if (parent !== pid) continue;
      found.push(name!);
      visit(child!);
    }
  };
  visit(String(root));
  return found;
};
/**
 * Starts `request`, cancels it once its progress says `when` (any progress by default) and `before`
 * looked at the work, and checks the client never got an answer.
 */
async function cancelAfterProgress(
  token: string,
  request: (signal: AbortSignal) => Promise<Answer>,
  options: {when?: (update: ProgressNotification['params']) => boolean; before?: () => void} = {},
): Promise<void> {
  const cancel = new AbortController();
  const outcome = request(cancel.signal).then(
    () => 'answered',
    (error: Error) => error.name,
  );
  await eventually(() => heard(token).some(options.when ?? (() => true)), 60_000, 20);
  options.before?.();
  cancel.abort('changed my mind');
  expect(await outcome).not.toBe('answered');
}
type ProcRow = {id: string; status: string};
const processes = async () => ((await ok(callWith('proc', {action: 'list'}))).structuredContent as {processes: ProcRow[]}).processes;

// One home, so one daemon, for the file: each test has a project of its own (the daemon keeps each
// project's processes apart) and an MCP server of its own, so what it lists and hears is its own.
let projects = 0;
beforeAll(() => void (sandbox = makeSandbox('wb-mcp-progress-')));
afterAll(async () => await sandbox.cleanup());

beforeEach(async () => {
  progress = [];
  clientErrors = [];
  projects += 1;
  project = join(sandbox.dir, `project-${projects}`);
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({name: 'p', scripts: {}}));
  client = await connect();
});

afterEach(async () => {
  await client?.close();
  client = undefined;
});

describe('run with wait_port', {timeout: 120_000}, () => {
  it('answers once a server that listens late accepts connections, with progress while it waits', async () => {
    const port = await closedPort();
    const answer = await ok(callWith('run', {cmd: `node ${lateServer} ${port} 1500`, id: 'late', wait_port: port}, {progressToken: 'run-1'}));
    expect(answer.structuredContent).toMatchObject({process: {id: 'late', status: 'running'}, ready: {port}});
    expect(answer.content[0]!.text).toMatch(new RegExp(`^started late \\(pid \\d+\\): .*\\nlistening on 127\\.0\\.0\\.1:${port} after \\d+\\.\\d s`));
    // It was answered because the server listens: it does now.
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('ready\n');
    const updates = heard('run-1');
    expect(updates.length).toBeGreaterThan(0);
    for (const update of updates) expect(update.message).toMatch(new RegExp(`^waiting for port ${port}, \\d+s$`));
    expectIncreasing(updates);
  });

  it('sends no progress to a call that gave no token', async () => {
    const port = await closedPort();
    await ok(callWith('run', {cmd: `node ${lateServer} ${port} 1200`, id: 'quiet', wait_port: port}));
    await ok(callWith('run', {cmd: 'echo done', id: 'fg', mode: 'foreground'}));
    expect(progress).toEqual([]);
  });

  it('stops the process it started when the wait is cancelled, answers nothing, and keeps serving', async () => {
    const port = await closedPort();
    await cancelAfterProgress('cancel-me', (signal) =>
      callWith('run', {cmd: `node ${lateServer} ${port} 600000`, id: 'never', wait_port: port}, {progressToken: 'cancel-me'}, signal),
    );
    await eventually(async () => (await processes()).find((row) => row.id === 'never')?.status === 'stopped', 30_000, 50);
    // The server goes on, and never sent the cancelled request an answer (the client would say it got one for an unknown id).
    await ok(callWith('detect', {}));
    const seen = heard('cancel-me').length;
    await ok(callWith('proc', {action: 'list'}));
    expect(heard('cancel-me').length).toBe(seen);
    expect(clientErrors).toEqual([]);
  });

  it('fails clearly when the process exits before it listens, or when the port takes too long (it keeps running)', async () => {
    const port = await closedPort();
    const exited = await callWith('run', {cmd: `node -e "console.log('Error: listen EADDRINUSE'); process.exit(3)"`, id: 'quits', wait_port: port});
    expect(exited.isError).toBe(true);
    expect(exited.content[0]!.text).toMatch(new RegExp(`quits exited 3 before it listened on port ${port}; its last output: .*Error: listen EADDRINUSE`));

    const slow = await callWith('run', {cmd: 'sleep 30', id: 'slow', wait_port: port, timeout_seconds: 1});
    expect(slow.isError).toBe(true);
    expect(slow.content[0]!.text).toContain(`slow did not listen on port ${port} within 1 s; it is still running (proc output slow, or proc stop slow)`);
    expect((await processes()).find((row) => row.id === 'slow')?.status).toBe('running');
  });

  it('refuses a wait_port that is no port, or one on a foreground run', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [0, /wait_port must be 1 or more/],
      [70000, /wait_port must be 65535 or less/],
      [1.5, /wait_port must be a whole number/],
      ['3000', /wait_port must be a number/],
      [null, /wait_port must be a number/],
    ];
    for (const [value, message] of cases) {
      const answer = await callWith('run', {cmd: 'echo x', wait_port: value});
      expect(answer.isError, String(value)).toBe(true);
      expect(answer.content[0]!.text, String(value)).toMatch(message);
    }
    const foreground = await callWith('run', {cmd: 'echo x', mode: 'foreground', wait_port: 3000});
    expect(foreground.content[0]!.text).toMatch(/wait_port is for background runs/);
    expect(await processes()).toEqual([]);
  });
});

describe('progress of other waits', {timeout: 120_000}, () => {
  it('reports a foreground run: seconds and bytes of output', async () => {
    const script = `process.stdout.write('x'.repeat(1000)); setTimeout(() => console.log('end'), 1500)`;
    const answer = await ok(callWith('run', {cmd: `node -e "${script}"`, id: 'fg', mode: 'foreground'}, {progressToken: 7}));
    expect(answer.content[0]!.text).toContain('end');
    const updates = heard(7);
    expect(updates.length).toBeGreaterThan(0);
    for (const update of updates) expect(update.message).toMatch(/^running, \d+s, [\d,]+ bytes of output$/);
    expectIncreasing(updates);
  });

  it('reports a proxy start', async () => {
    const port = await closedPort();
    await ok(callWith('proxy', {action: 'start', id: 'app', target: `http://127.0.0.1:${port}`}, {progressToken: 'proxy-1'}));
    expect(heard('proxy-1')[0]?.message).toBe(`starting proxy app for http://127.0.0.1:${port}, 0s`);
    await ok(callWith('proxy', {action: 'stop', id: 'app'}));
  });

  it('reports a proxy exec waiting for a page, and stops waiting when it is cancelled', async () => {
    const started = (await ok(callWith('proxy', {action: 'start', id: 'app', target: `http://127.0.0.1:${await closedPort()}`}))).structuredContent as {proxy: {url: string}};
    const page: FakePage = await connectPage(started.proxy.url);
    try {
      page.freeze();
      const answer = await callWith('proxy', {action: 'exec', id: 'app', code: 'document.title', timeout_ms: 1500}, {progressToken: 'exec-1'});
      expect(answer.content[0]!.text).toMatch(/1500|did not answer|timed out/i);
      const updates = heard('exec-1');
      expect(updates.length).toBeGreaterThan(0);
      for (const update of updates) expect(update.message).toMatch(/^waiting for the page\(s\) of app, \d+s of at most 2s$/);
      expectIncreasing(updates);

      await cancelAfterProgress('exec-2', (signal) =>
        callWith('proxy', {action: 'exec', id: 'app', code: 'document.title', timeout_ms: 60_000}, {progressToken: 'exec-2'}, signal),
      );
      await ok(callWith('proxy', {action: 'list'}));
      expect(clientErrors).toEqual([]);
    } finally {
      await page.close();
      // Proxies are the daemon's, not the project's: the next test's daemon is this one.
      await callWith('proxy', {action: 'stop', id: 'app'});
    }
  });

  describe.skipIf(!hasChromium)('snapshot', () => {
    let pages: TestPages;
    let shared: Sandbox;
    // Snapshots are kept in the home, not the project: each of these has a home (and a server) of its own.
    beforeEach(async () => {
      pages = await startTestPages();
      await client?.close();
      shared = sandbox;
      sandbox = makeSandbox('wb-mcp-progress-snapshot-');
      project = join(sandbox.dir, 'project');
      mkdirSync(project);
      writeFileSync(join(project, 'package.json'), JSON.stringify({name: 'p', scripts: {}}));
      client = await connect();
    });
    afterEach(async () => {
      await pages.close();
      await client?.close();
      client = undefined;
      await sandbox.cleanup();
      sandbox = shared;
    });

    it('reports the steps of a baseline, the last one when it is stored', async () => {
      const answer = await ok(callWith('snapshot', {action: 'baseline', name: 'home', url: `${pages.url}/`, width: 400, height: 300}, {progressToken: 'snap'}));
      expect(answer.content[0]!.text).toContain('baseline home:');
      const updates = heard('snap');
      expect(updates.at(-1)).toEqual({progressToken: 'snap', progress: 4, total: 4, message: 'stored'});
      for (const update of updates) expect(update.total).toBe(4);
      expectIncreasing(updates);
    });

    it('closes the browser when a baseline is cancelled while the page loads, and stores nothing', async () => {
      // /hang takes the request and never answers: the capture is stuck loading until cancelled.
      await cancelAfterProgress(
        'snap-hang',
        (signal) => callWith('snapshot', {action: 'baseline', name: 'stuck', url: `${pages.url}/hang`, timeout: 120}, {progressToken: 'snap-hang'}, signal),
        {
          when: (update) => update.message === `loading ${pages.url}/hang`,
          before: () => expect(descendants(serverPid!).some((name) => /chrom/i.test(name))).toBe(true),
        },
      );
      await eventually(() => !descendants(serverPid!).some((name) => /chrom/i.test(name)), 30_000, 100);
      expect(existsSync(join(sandbox.home, 'snapshots', 'stuck'))).toBe(false);
      expect((await ok(callWith('snapshot', {action: 'list'}))).structuredContent).toMatchObject({total: 0});
      expect(clientErrors).toEqual([]);
    });
  });
});

describe('cancellation and tokens that are wrong', {timeout: 60_000}, () => {
  it('ignores a cancel of a request that already finished, or of one that never was', async () => {
    await ok(callWith('detect', {}));
    // Ids 0 (initialize) and 1 were answered; 9999 and "nope" were never asked. (Not the next id, 2:
    // the SDK handles a notification a tick after the request behind it, so that cancel would hit it.)
    for (const requestId of [0, 1, 9999, 'nope']) await client!.notification({method: 'notifications/cancelled', params: {requestId, reason: 'late'}});
    await ok(callWith('proc', {action: 'list'}));
    expect(clientErrors).toEqual([]);
  });

  it('refuses a progressToken that is neither a string nor a whole number with -32602, and stays up', async () => {
    for (const token of [{nested: true}, true, 1.5, null, ['a']]) {
      const error = (await callWith('detect', {}, {progressToken: token}).then(
        () => undefined,
        (failure: {code?: number; message?: string}) => failure,
      )) as {code?: number; message?: string} | undefined;
      expect(error, JSON.stringify(token)).toBeDefined();
      expect(error!.code, JSON.stringify(token)).toBe(-32602);
      expect(error!.message, JSON.stringify(token)).toMatch(/Invalid params for tools\/call: _meta\.progressToken/);
    }
    expect(progress).toEqual([]);
    await ok(callWith('detect', {}, {progressToken: 'fine'}));
  });
});

describe('workbench run --wait-port', {timeout: 60_000}, () => {
  it('waits for the port on the command line, and refuses a flag that is no port', async () => {
    const port = await closedPort();
    const run = await runCli(['run', '--cmd', `node ${lateServer} ${port} 500`, '--id', 'cli-late', '--wait-port', String(port)], {env: sandbox.env, cwd: project});
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`listening on 127\\.0\\.0\\.1:${port} after`));
    const cases = [
      ['abc', /^workbench: --wait-port must be a whole number, got "abc"/],
      ['0', /^workbench: --wait-port must be 1 or more/],
    ] as const;
    // The refusals start nothing: they run side by side.
    const [foreground, ...bads] = await Promise.all([
      runCli(['run', '--cmd', 'echo x', '--fg', '--wait-port', '3000'], {env: sandbox.env, cwd: project}),
      ...cases.map(([value]) => runCli(['run', '--cmd', 'echo x', '--wait-port', value], {env: sandbox.env, cwd: project})),
    ]);
    cases.forEach(([value, message], index) => {
      expect(bads[index]!.code, value).toBe(1);
      expect(bads[index]!.stderr, value).toMatch(message);
    });
    expect(foreground!.stderr).toMatch(/^workbench: --wait-port is for background runs/);
  });
});
