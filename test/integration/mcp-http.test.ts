import type {ChildProcess} from 'node:child_process';
import {mkdirSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {CallToolResultSchema, ResourceUpdatedNotificationSchema, type Progress} from '@modelcontextprotocol/sdk/types.js';
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest';
import {eventually, makeSandbox, repoRoot, runCli, spawnCli, type Sandbox} from '../helpers/cli.js';
import {inspect} from '../helpers/inspector.js';
import {closedPort, startTargetApp, type TargetApp} from '../helpers/target-app.js';

/**
 * Issue 29 item 6: `workbench mcp --http` through the official SDK client over Streamable HTTP, on
 * the real daemon and the real dev proxy; the transport's guards and its bad input over raw HTTP.
 */

let sandbox: Sandbox;
let project: string;
let target: TargetApp;
let server: ChildProcess | undefined;
const clients: Client[] = [];

const INIT = {jsonrpc: '2.0', id: 1, method: 'initialize', params: {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 'raw', version: '1'}}};
const ACCEPT = {'Content-Type': 'application/json', Accept: 'application/json, text/event-stream'};

/** Starts `workbench mcp --http --port 0 …` and reads the URL it prints. */
async function serve(args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<string> {
  server = spawnCli(['mcp', '--http', '--port', '0', ...args], {env: {...sandbox.env, ...env}, cwd: project});
  let out = '';
  let err = '';
  server.stderr!.on('data', (chunk: Buffer) => (err += chunk));
  return new Promise((resolve, reject) => {
    server!.stdout!.on('data', (chunk: Buffer) => {
      out += chunk;
      const line = /^(http:\/\/\S+)\n/.exec(out);
      if (line) resolve(line[1]!);
    });
    server!.once('exit', (code) => reject(new Error(`mcp --http exited ${code}: ${err}`)));
  });
}

async function connect(url: string, headers: Record<string, string> = {}): Promise<{client: Client; updated: string[]}> {
  const updated: string[] = [];
  const client = new Client({name: 'workbench-http-test', version: '1.0.0'});
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => void updated.push(notification.params.uri));
  await client.connect(new StreamableHTTPClientTransport(new URL(url), {requestInit: {headers}}));
  clients.push(client);
  return {client, updated};
}

type Answer = {content: Array<{type: string; text: string}>; structuredContent?: Record<string, unknown>; isError?: boolean};
async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Answer> {
  const answer = (await client.callTool({name, arguments: args})) as Answer;
  expect(answer.isError, answer.content[0]?.text).toBeFalsy();
  return answer;
}

/** A raw POST: its status and its JSON-RPC answer (read off the SSE event when it is one). */
async function post(
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{status: number; json: {error?: {code: number; message: string}; result?: unknown}; session: string | null}> {
  const response = await fetch(url, {method: 'POST', headers: {...ACCEPT, ...headers}, body});
  const text = await response.text();
  const data = /^data: (.*)$/m.exec(text)?.[1] ?? text;
  return {status: response.status, json: JSON.parse(data), session: response.headers.get('mcp-session-id')};
}

// One home, so one daemon, for the file: each test has a project (and a server) of its own, whose
// processes the daemon keeps apart from the others'.
let projects = 0;
beforeAll(() => void (sandbox = makeSandbox('wb-mcp-http-')));
afterAll(async () => await sandbox.cleanup());

beforeEach(async () => {
  projects += 1;
  project = join(sandbox.dir, `project-${projects}`);
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({name: 'p', scripts: {hello: 'echo hello'}}));
  target = await startTargetApp();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  server = undefined;
  await target.close();
});

/** The Inspector over HTTP, run from the sandbox. */
const inspectHttp = (args: string[]) => inspect(args, {env: sandbox.env, cwd: sandbox.dir});

describe('workbench mcp --http (issue 29 item 6)', {timeout: 120_000}, () => {
  it('answers the MCP Inspector CLI over Streamable HTTP: tools, a tool call and the resource templates', async () => {
    const url = await serve();
    const tools = await inspectHttp([url, '--transport', 'http', '--method', 'tools/list']);
    expect(tools.code, tools.stderr).toBe(0);
    expect(JSON.parse(tools.stdout).tools.map((tool: {name: string}) => tool.name)).toContain('get_incidents');
    const called = await inspectHttp([url, '--transport', 'http', '--method', 'tools/call', '--tool-name', 'detect']);
    expect(called.code, called.stderr).toBe(0);
    expect(JSON.parse(called.stdout).content[0].text).toMatch(/hello/);
    const templates = await inspectHttp([url, '--transport', 'http', '--method', 'resources/templates/list']);
    expect(templates.code, templates.stderr).toBe(0);
    expect(JSON.parse(templates.stdout).resourceTemplates.map((one: {uriTemplate: string}) => one.uriTemplate)).toContain('workbench://incidents/{id}');
  });

  it('serves two clients at once on the one daemon: tools, a subscription told of a real proxy error, and DELETE ends one session', async () => {
    const url = await serve();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const first = await connect(url);
    const second = await connect(url);
    expect(first.client.getServerCapabilities()).toMatchObject({tools: {}, resources: {subscribe: true}, logging: {}});
    expect((await first.client.listTools()).tools.map((tool) => tool.name)).toContain('get_incidents');

    await second.client.subscribeResource({uri: 'workbench://incidents'});
    // One client starts a proxy; a request through it fails; the other client's subscription hears of it.
    const proxy = (await call(first.client, 'proxy', {action: 'start', id: 'app', target: target.url})).structuredContent as {proxy: {url: string}};
    expect((await fetch(`${proxy.proxy.url}/api/boom`)).status).toBe(500);
    await eventually(() => second.updated.includes('workbench://incidents'), 30_000, 20);
    const incidents = (await call(second.client, 'get_incidents', {})).structuredContent as {incidents: Array<{source: string}>};
    expect(incidents.incidents.some((incident) => incident.source.startsWith('proxy:'))).toBe(true);
    // The same daemon: a process the second starts, the first lists.
    await call(second.client, 'run', {cmd: 'sleep 30', id: 'shared'});
    const listed = (await call(first.client, 'proc', {action: 'list'})).structuredContent as {processes: Array<{id: string}>};
    expect(listed.processes.map((one) => one.id)).toContain('shared');

    // DELETE ends the first session; its id is then unknown (404) while the second goes on.
    const transport = (first.client as unknown as {_transport: StreamableHTTPClientTransport})._transport;
    const session = transport.sessionId!;
    await transport.terminateSession();
    const after = await post(url, JSON.stringify({jsonrpc: '2.0', id: 2, method: 'tools/list'}), {'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18'});
    expect(after.status).toBe(404);
    expect(after.json.error!.message).toMatch(/unknown or ended session/);
    expect((await call(second.client, 'proc', {action: 'list'})).isError).toBeFalsy();
  });

  it('sends progress while run waits for a port, and a cancel stops the wait and the process it started', async () => {
    const url = await serve();
    const {client} = await connect(url);
    const lateServer = join(repoRoot, 'fixtures/devservers/late-server.mjs');
    const port = await closedPort();
    const heard: Progress[] = [];
    const answer = (await client.callTool({name: 'run', arguments: {cmd: `node ${lateServer} ${port} 1500`, id: 'late', wait_port: port}}, CallToolResultSchema, {
      onprogress: (progress) => void heard.push(progress),
      timeout: 60_000,
    })) as Answer;
    expect(answer.isError, answer.content[0]?.text).toBeFalsy();
    expect(answer.structuredContent).toMatchObject({ready: {port}});
    expect(heard.length).toBeGreaterThan(0);
    expect(heard.some((one) => /waiting for port/.test(one.message ?? ''))).toBe(true);

    const never = await closedPort();
    const cancel = new AbortController();
    const waiting = client.callTool({name: 'run', arguments: {cmd: `node ${lateServer} ${never} 600000`, id: 'never', wait_port: never}}, CallToolResultSchema, {
      signal: cancel.signal,
      onprogress: () => cancel.abort('enough'),
      timeout: 60_000,
    });
    await expect(waiting).rejects.toThrow();
    await eventually(async () => {
      const listed = (await call(client, 'proc', {action: 'list'})).structuredContent as {processes: Array<{id: string; status: string}>};
      const process = listed.processes.find((one) => one.id === 'never');
      return process && process.status !== 'running' && process.status !== 'starting';
    }, 30_000);
  });

  it('refuses another Host, another site and a request without a session; garbage gets a parse error; the process stays up', async () => {
    const url = await serve();
    const {port} = new URL(url);
    // A page of a rebound name sends its own name as the Host (fetch cannot set one: a raw socket does).
    expect(await rawStatus(Number(port), 'evil.example')).toBe(403);
    expect(await rawStatus(Number(port), `localhost:${port}`)).toBe(200);
    expect(await rawStatus(Number(port), `evil.example:${port}`)).toBe(403);
    for (const method of ['GET', 'POST']) {
      const origin = await fetch(url, {method, headers: {...ACCEPT, Origin: 'https://evil.example'}, body: method === 'POST' ? JSON.stringify(INIT) : undefined});
      expect(origin.status, method).toBe(403);
      expect(await origin.text()).toMatch(/from another site refused/);
      const fetchSite = await fetch(url, {method, headers: {...ACCEPT, 'Sec-Fetch-Site': 'cross-site'}, body: method === 'POST' ? JSON.stringify(INIT) : undefined});
      expect(fetchSite.status, method).toBe(403);
    }
    // The server's own origin is welcome.
    expect((await post(url, JSON.stringify(INIT), {Origin: `http://127.0.0.1:${port}`})).status).toBe(200);

    expect((await fetch(url, {headers: ACCEPT})).status).toBe(400);
    expect((await fetch(url.replace(/\/mcp$/, '/other'), {method: 'POST', headers: ACCEPT, body: '{}'})).status).toBe(404);
    const unknown = await post(url, JSON.stringify({jsonrpc: '2.0', id: 2, method: 'tools/list'}), {'mcp-session-id': 'no-such-session'});
    expect(unknown.status).toBe(404);
    const garbage = await post(url, '{"jsonrpc": "2.0", "id": ', {});
    expect(garbage.status).toBe(400);
    expect(garbage.json.error!.code).toBe(-32700);
    const notInitialize = await post(url, JSON.stringify({jsonrpc: '2.0', id: 3, method: 'tools/list'}));
    expect(notInitialize.status).toBe(400);
    // A body declared over 4 MiB is refused before it is read (a raw socket: fetch would see the reset).
    expect(await rawStatus(Number(port), `127.0.0.1:${port}`, 5 * 1024 * 1024)).toBe(413);
    // Sent in chunks without a length: read up to the bound, then refused.
    expect(await chunkedStatus(Number(port), 5 * 1024 * 1024)).toBe(413);
    // A progress token of a wrong type is named, not dropped as an "invalid message".
    const {client: tokenClient} = await connect(url);
    const session = (tokenClient as unknown as {_transport: StreamableHTTPClientTransport})._transport.sessionId!;
    for (const token of [{a: 1}, true, 1.5]) {
      const bad = await post(url, JSON.stringify({jsonrpc: '2.0', id: 9, method: 'tools/call', params: {name: 'detect', arguments: {}, _meta: {progressToken: token}}}), {
        'mcp-session-id': session,
        'mcp-protocol-version': '2025-06-18',
      });
      expect(bad.json.error, JSON.stringify(token)).toMatchObject({code: -32602, message: expect.stringMatching(/progressToken must be a string or a whole number/)});
    }
    // Garbage left no session behind, and the server still works.
    const {client} = await connect(url);
    expect((await client.listTools()).tools.length).toBeGreaterThan(5);
  });

  it('with --token: 401 without the token or with a wrong one, in with the kept token (0600) or $WORKBENCH_MCP_TOKEN', async () => {
    const url = await serve(['--token']);
    const missing = await fetch(url, {method: 'POST', headers: ACCEPT, body: JSON.stringify(INIT)});
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect((await fetch(url, {method: 'POST', headers: {...ACCEPT, Authorization: 'Bearer wrong-token-wrong-token'}, body: JSON.stringify(INIT)})).status).toBe(401);
    const path = join(sandbox.home, 'mcp-http-token');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const token = readFileSync(path, 'utf8').trim();
    expect(token.length).toBeGreaterThanOrEqual(43);
    const {client} = await connect(url, {Authorization: `Bearer ${token}`});
    expect((await client.listTools()).tools.length).toBeGreaterThan(5);
    server!.kill('SIGTERM');
    await new Promise((resolve) => server!.once('exit', resolve));

    // A restart keeps the token; the variable replaces it.
    const again = await serve(['--token']);
    expect((await post(again, JSON.stringify(INIT), {Authorization: `Bearer ${token}`})).status).toBe(200);
    server!.kill('SIGTERM');
    await new Promise((resolve) => server!.once('exit', resolve));
    const mine = 'my-own-token-of-enough-length-0123456789';
    const third = await serve(['--token'], {WORKBENCH_MCP_TOKEN: mine});
    expect((await post(third, JSON.stringify(INIT), {Authorization: `Bearer ${token}`})).status).toBe(401);
    expect((await post(third, JSON.stringify(INIT), {Authorization: `Bearer ${mine}`})).status).toBe(200);
  });

  it('refuses bad flags in one line with exit 2, and a port in use with exit 1', async () => {
    const cases = [
      [['mcp', '--bogus'], /Unknown option '--bogus'/],
      [['mcp', '--port', '80'], /--host, --port and --token go with --http/],
      [['mcp', '--http', '--port', 'abc'], /--port must be a whole number/],
      [['mcp', '--http', '--port', '70000'], /--port must be a whole number/],
      [['mcp', '--http', '--host', '0.0.0.0'], /add --token/],
      [['mcp', '--http', '--host', 'a b'], /--host must be/],
      [['mcp', '--http', '--no-daemon'], /--http needs the daemon/],
    ] as const;
    // Each refusal is its own process and touches nothing: they run side by side.
    const results = await Promise.all(cases.map(([args]) => runCli([...args], {env: sandbox.env, cwd: project})));
    cases.forEach(([args, pattern], index) => {
      const result = results[index]!;
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(result.stderr).toMatch(pattern);
    });
    const {port} = new URL(await serve());
    const taken = await runCli(['mcp', '--http', '--port', port], {env: sandbox.env, cwd: project});
    expect(taken.code).toBe(1);
    expect(taken.stderr).toMatch(new RegExp(`cannot listen: port ${port} on 127\\.0\\.0\\.1 is in use`));
    const bad = await runCli(['mcp', '--http', '--token'], {env: {...sandbox.env, WORKBENCH_MCP_TOKEN: 'short'}, cwd: project});
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/WORKBENCH_MCP_TOKEN must be at least 22 printable characters/);
    expect(bad.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
  });
});

/**
 * A POST with a Host header fetch would not send, over a raw socket: the status line's code, read
 * as soon as it arrives (the SDK answers an initialize with `connection: keep-alive` whatever the
 * request asked, so waiting for the socket's end would wait out the server's keep-alive timeout).
 */
async function rawStatus(port: number, host: string, declaredLength?: number): Promise<number> {
  const {connect: open} = await import('node:net');
  return new Promise((resolve, reject) => {
    const socket = open(port, '127.0.0.1', () => {
      const body = JSON.stringify(INIT);
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${declaredLength ?? body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
    });
    let text = '';
    const status = () => /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
    socket.on('data', (chunk) => {
      text += chunk;
      if (!status()) return;
      socket.destroy();
      resolve(Number(status()));
    });
    socket.on('end', () => resolve(Number(status())));
    socket.on('error', (error) => (text ? resolve(Number(status())) : reject(error)));
  });
}

/** A body of `bytes` sent in 64 KiB chunks without a Content-Length: the status line's code. */
async function chunkedStatus(port: number, bytes: number): Promise<number> {
  const {connect: open} = await import('node:net');
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = open(port, '127.0.0.1', async () => {
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n`,
      );
      const chunk = 'x'.repeat(64 * 1024);
      for (let sent = 0; sent < bytes && !text; sent += chunk.length) {
        if (!socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`)) await new Promise((drained) => socket.once('drain', drained));
      }
      if (!text) socket.write('0\r\n\r\n');
    });
    socket.on('data', (data) => {
      text += data;
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (status) {
        socket.destroy();
        resolve(Number(status[1]));
      }
    });
    socket.on('error', (error) => (text ? undefined : reject(error)));
  });
}
