import {connect as openSocket} from 'node:net';
import type {Server} from '@modelcontextprotocol/sdk/server/index.js';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {startMcpHttpServer, type McpHttpServer} from '../../source/mcp/http/http-server.js';
import {eventually, makeSandbox, type Sandbox} from '../helpers/cli.js';

/**
 * Issue 29 item 6, the event streams of `workbench mcp --http` over raw HTTP: a client whose
 * stream broke gets what it missed (Last-Event-ID), and one that never reads its stream is
 * dropped once a bounded backlog waits for it, the server going on for everyone else. The
 * server runs in the test's process so the test can have it send many messages at once; what
 * they travel through is the real transport and event store.
 */

let sandbox: Sandbox;
let http: McpHttpServer | undefined;
const servers: Server[] = [];
const logs: string[] = [];
let saved: string | undefined;

const ACCEPT = {'Content-Type': 'application/json', Accept: 'application/json, text/event-stream'};
const INIT = {jsonrpc: '2.0', id: 1, method: 'initialize', params: {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 'raw', version: '1'}}};

beforeEach(async () => {
  sandbox = makeSandbox('wb-mcp-http-streams-');
  saved = process.env.WORKBENCH_HOME;
  // The session's tool context names the sandbox's home; nothing here starts a daemon.
  process.env.WORKBENCH_HOME = sandbox.home;
});

afterEach(async () => {
  await http?.close();
  http = undefined;
  servers.length = 0;
  logs.length = 0;
  if (saved === undefined) delete process.env.WORKBENCH_HOME;
  else process.env.WORKBENCH_HOME = saved;
  await sandbox.cleanup();
});

async function start(maxBacklog?: number): Promise<McpHttpServer> {
  http = await startMcpHttpServer({host: '127.0.0.1', port: 0, cwd: sandbox.dir, log: (line) => logs.push(line), maxBacklog, onSession: (server) => servers.push(server)});
  return http;
}

/** initialize, then initialized: the session id. */
async function session(url: string): Promise<string> {
  const response = await fetch(url, {method: 'POST', headers: ACCEPT, body: JSON.stringify(INIT)});
  expect(response.status).toBe(200);
  await response.text();
  const id = response.headers.get('mcp-session-id')!;
  const initialized = await fetch(url, {method: 'POST', headers: {...ACCEPT, 'mcp-session-id': id}, body: JSON.stringify({jsonrpc: '2.0', method: 'notifications/initialized'})});
  expect(initialized.status).toBe(202);
  return id;
}

const message = (data: string) => servers.at(-1)!.notification({method: 'notifications/message', params: {level: 'error', data}});

/** Reads SSE events off a GET stream until `until` says stop: [id, data] pairs. */
async function readEvents(response: Response, until: (events: Array<[string, string]>) => boolean): Promise<Array<[string, string]>> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: Array<[string, string]> = [];
  let text = '';
  while (!until(events)) {
    const {value, done} = await reader.read();
    if (done) break;
    text += decoder.decode(value);
    for (let end = text.indexOf('\n\n'); end !== -1; end = text.indexOf('\n\n')) {
      const block = text.slice(0, end);
      text = text.slice(end + 2);
      const data = /^data: (.*)$/m.exec(block)?.[1];
      const id = /^id: (.*)$/m.exec(block)?.[1];
      if (data && id) events.push([id, (JSON.parse(data) as {params: {data: string}}).params.data]);
    }
  }
  await reader.cancel();
  return events;
}

describe('event streams of workbench mcp --http', {timeout: 60_000}, () => {
  it('replays to a client that reconnects with Last-Event-ID what was sent while its stream was down', async () => {
    const {url} = await start();
    const id = await session(url);
    const stream = await fetch(url, {headers: {...ACCEPT, 'mcp-session-id': id}});
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    await eventually(() => http!.sessions() === 1);
    const reading = readEvents(stream, (events) => events.length >= 1);
    await eventually(async () => {
      await message('first');
      return true;
    });
    const [[lastId, first]] = await reading;
    expect(first).toBe('first');
    // The stream is down; what comes now is kept.
    await eventually(async () => {
      await message('second');
      await message('third');
      return true;
    });
    // 409 until the server has seen the old stream go: one stream per resumption at a time.
    const resumed = await eventually(async () => {
      const response = await fetch(url, {headers: {...ACCEPT, 'mcp-session-id': id, 'last-event-id': lastId!}});
      if (response.status === 200) return response;
      expect(response.status).toBe(409);
      await response.text();
      return undefined;
    });
    const missed = await readEvents(resumed, (events) => events.length >= 2);
    expect(missed.map(([, data]) => data)).toEqual(['second', 'third']);

    const unknown = await fetch(url, {headers: {...ACCEPT, 'mcp-session-id': id, 'last-event-id': '999999@nothing'}});
    expect(unknown.status).toBe(400);
    await unknown.text();
  });

  it('drops a session whose client never reads its stream once a bounded backlog waits, and serves others on', async () => {
    const {url} = await start(256 * 1024);
    const id = await session(url);
    const {port} = new URL(url);
    // A client that opens its stream and never reads a byte of it.
    const socket = openSocket(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.pause();
    socket.write(`GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\nmcp-session-id: ${id}\r\n\r\n`);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const kilobyte = 'x'.repeat(2000);
    for (let i = 0; i < 20_000 && http!.sessions() > 0; i++) {
      await message(`${i} ${kilobyte}`).catch(() => {});
      if (i % 200 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await eventually(() => http!.sessions() === 0, 20_000, 20);
    socket.destroy();
    await closed;
    const waiting = /closed: the client stopped reading its event stream \((\d+) bytes waiting\)/.exec(logs.join('\n'));
    expect(waiting, logs.join('\n')).not.toBeNull();
    // Dropped at the bound: no more than one message past it waited.
    expect(Number(waiting![1])).toBeGreaterThan(256 * 1024);
    expect(Number(waiting![1])).toBeLessThan(256 * 1024 + 3000);
    // Another client is served as before.
    expect(await session(url)).toMatch(/^[0-9a-f-]{36}$/);
  });
});
