import {randomUUID} from 'node:crypto';
import {createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';
import type {Server} from '@modelcontextprotocol/sdk/server/index.js';
import {StreamableHTTPServerTransport} from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {describeError} from '../../core/errors.js';
import {crossSiteRefusal, hostRefusal} from '../../net/local-guard.js';
import {guardRequestParams} from '../params-guard.js';
import {markBadProgressTokenIn} from '../progress-token.js';
import {createMcpServer} from '../server.js';
import {bearerMatches} from './bearer-token.js';
import {BoundedEventStore} from './event-store.js';

export const MCP_PATH = '/mcp';
/** Sessions at once: each is an editor window; more is a client that never ends its sessions. */
export const MAX_SESSIONS = 32;
/** What may queue for a client that stopped reading its SSE stream before its session is dropped. */
export const MAX_SESSION_BACKLOG = 1024 * 1024;
const IDLE_MS = 30 * 60_000;
/** A POST body's bound (the SDK's own default). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface McpHttpOptions {
  host: string;
  port: number;
  cwd?: string;
  /** Required of every request as `Authorization: Bearer <token>` when set. */
  token?: string;
  /** How the server reports what it does (stderr). */
  log(message: string): void;
  /** Tests only: another bound on a stalled client's queue. */
  maxBacklog?: number;
  /** Tests only: each session's MCP server, as it is made. */
  onSession?(server: Server): void;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  close(): Promise<void>;
  lastSeen: number;
  /** Responses whose SSE stream is open: their backpressure says whether the client reads. */
  streams: Set<ServerResponse>;
  /** Bytes queued since a stream of this session last drained while it was full. */
  backlog: number;
  closed: boolean;
}

export interface McpHttpServer {
  url: string;
  sessions(): number;
  close(): Promise<void>;
}

/**
 * `workbench mcp --http`: the MCP server over Streamable HTTP at /mcp, one MCP session (and one
 * server object with its own subscriptions) per client, every session a client of the one
 * daemon. Before the SDK sees a request: the kit's Host rule (DNS rebinding) and Origin rule
 * (any other site's page is refused, reads included, as the MCP specification asks), then the
 * bearer token when one is set.
 */
export async function startMcpHttpServer(options: McpHttpOptions): Promise<McpHttpServer> {
  const sessions = new Map<string, Session>();
  const maxBacklog = options.maxBacklog ?? MAX_SESSION_BACKLOG;

  const drop = async (session: Session, why: string) => {
    if (session.closed) return;
    session.closed = true;
    const id = session.transport.sessionId;
    if (id) sessions.delete(id);
    if (why) options.log(`session ${id ?? '(new)'} closed: ${why}`);
    for (const stream of session.streams) stream.destroy();
    await session.transport.close().catch(() => {});
    await session.close().catch((error) => options.log(`session ${id} close failed: ${describeError(error)}`));
  };

  const openSession = async (): Promise<Session> => {
    const mcp = createMcpServer({cwd: options.cwd});
    options.onSession?.(mcp.server);
    const session: Session = {transport: undefined as never, close: mcp.close, lastSeen: Date.now(), streams: new Set(), backlog: 0, closed: false};
    const onStored = (bytes: number) => {
      // Counted only while the client is not taking what was sent: a full socket buffer.
      if (![...session.streams].some((stream) => stream.writableNeedDrain)) return;
      session.backlog += bytes;
      if (session.backlog > maxBacklog) void drop(session, `the client stopped reading its event stream (${session.backlog} bytes waiting)`);
    };
    session.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new BoundedEventStore(onStored),
      onsessioninitialized: (id) => {
        sessions.set(id, session);
      },
      onsessionclosed: () => void drop(session, ''),
    });
    session.transport.onclose = () => void drop(session, '');
    await mcp.server.connect(session.transport);
    guardRequestParams(session.transport);
    return session;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '/').split('?')[0];
    const refusal =
      hostRefusal(request.headers.host, {localAddress: request.socket.localAddress, localPort: request.socket.localPort}) ??
      crossSiteRefusal(request.method ?? 'GET', request.headers, undefined, 'requests');
    if (refusal) return answer(response, 403, refusal.message);
    if (path !== MCP_PATH) return answer(response, 404, `not found: the MCP endpoint is ${MCP_PATH}`);
    if (options.token !== undefined && !bearerMatches(request.headers.authorization, options.token)) {
      response.setHeader('WWW-Authenticate', 'Bearer realm="workbench mcp"');
      return answer(response, 401, 'unauthorized: send Authorization: Bearer <token> (the token workbench mcp --http --token printed the place of)');
    }
    let body: unknown;
    if (request.method === 'POST') {
      const read = await readJsonBody(request);
      if ('refusal' in read) return answer(response, read.status, read.refusal, read.code);
      body = read.body;
      // A progress token of the wrong type would fail the SDK's schema as "invalid JSON-RPC": marked here, answered -32602 by params-guard.ts.
      markBadProgressTokenIn(body);
    }
    const id = request.headers['mcp-session-id'];
    let session: Session | undefined;
    if (id !== undefined) {
      session = typeof id === 'string' ? sessions.get(id) : undefined;
      if (!session) return answer(response, 404, 'unknown or ended session: start a new one with an initialize request');
    } else {
      if (request.method !== 'POST') return answer(response, 400, 'no session: start one with an initialize request (POST)');
      if (sessions.size >= MAX_SESSIONS) return answer(response, 503, `too many sessions (${MAX_SESSIONS}): end one with DELETE ${MCP_PATH}`);
      session = await openSession();
    }
    session.lastSeen = Date.now();
    // GET opens the notification stream, a POST may answer as one; a DELETE ends the session.
    if (request.method !== 'DELETE') watchStream(session, response);
    await session.transport.handleRequest(request, response, body);
    // A first request that did not start a session (not an initialize, garbage) leaves nothing behind.
    if (id === undefined && !session.transport.sessionId) await drop(session, '');
  };

  const watchStream = (session: Session, response: ServerResponse) => {
    session.streams.add(response);
    response.on('drain', () => (session.backlog = 0));
    response.on('close', () => {
      session.streams.delete(response);
      session.lastSeen = Date.now();
    });
  };

  const server: HttpServer = createServer((request, response) => {
    handle(request, response).catch((error) => {
      options.log(`request failed: ${describeError(error)}`);
      if (!response.headersSent) answer(response, 500, 'internal error');
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // An editor that quit without DELETE: its session goes after half an hour without requests.
  const sweep = setInterval(() => {
    for (const session of sessions.values()) if (session.streams.size === 0 && Date.now() - session.lastSeen > IDLE_MS) void drop(session, 'idle');
  }, 60_000);
  sweep.unref();
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}${MCP_PATH}`,
    sessions: () => sessions.size,
    async close() {
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map((session) => drop(session, '')));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A refusal as a JSON-RPC error without an id, the shape MCP clients read off an HTTP error. */
function answer(response: ServerResponse, status: number, message: string, code = -32000): void {
  response.writeHead(status, {'Content-Type': 'application/json'});
  response.end(JSON.stringify({jsonrpc: '2.0', error: {code, message}, id: null}));
}

/** A POST's JSON, read here (within MAX_BODY_BYTES) so its params can be checked before the SDK's schema sees them. */
function readJsonBody(request: IncomingMessage): Promise<{body: unknown} | {refusal: string; status: number; code: number}> {
  const tooLarge = {refusal: `the body is over ${MAX_BODY_BYTES} bytes`, status: 413, code: -32000};
  if (Number(request.headers['content-length'] ?? 0) > MAX_BODY_BYTES) return Promise.resolve(tooLarge);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    request.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      // The rest is read and dropped, so the answer reaches the client instead of a reset.
      if (size > MAX_BODY_BYTES) {
        over = true;
        chunks.length = 0;
        resolve(tooLarge);
      } else chunks.push(chunk);
    });
    request.on('error', () => resolve({refusal: 'the request broke off', status: 400, code: -32000}));
    request.on('end', () => {
      if (over) return;
      try {
        resolve({body: JSON.parse(Buffer.concat(chunks).toString('utf8'))});
      } catch {
        resolve({refusal: 'Parse error: the body is not JSON', status: 400, code: -32700});
      }
    });
  });
}
