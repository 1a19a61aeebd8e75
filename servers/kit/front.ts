import {STATUS_CODES, validateHeaderName, validateHeaderValue, type IncomingMessage, type Server, type ServerResponse} from 'node:http';
import type {Socket} from 'node:net';
import type {RequestLine} from './request-log.js';

/** A request the front may answer: GET or HEAD with no body, header names lower case, each sent once. */
export interface FrontRequest {
  method: 'GET' | 'HEAD';
  url: string;
  headers: Readonly<Record<string, string | undefined>>;
}

/** A whole answer at hand: status, node's flat [name, value, …] header list (kept by the caller: it is memoised by identity), and the body. */
export interface FrontAnswer {
  status: number;
  headers: readonly string[];
  body?: Buffer;
}

/**
 * Answers what it has at hand and nothing else (undefined: fastify answers). It gets none of the
 * app's hooks, so it keeps the app's rules itself.
 */
export type Front = (request: FrontRequest) => FrontAnswer | undefined;

/** The front on node:http's request: for connections node already parses (see installRawFront). */
export function answerFromFront(front: Front, request: IncomingMessage, response: ServerResponse): boolean {
  const {method, url} = request;
  if ((method !== 'GET' && method !== 'HEAD') || url === undefined) return false;
  const answer = front({method, url, headers: request.headers as Record<string, string | undefined>});
  if (answer === undefined) return false;
  response.writeHead(answer.status, answer.headers as string[]);
  response.end(method === 'GET' ? answer.body : undefined);
  return true;
}

// A request head node:http allows in at most 16 KB; past that, node answers it (431).
const MAX_HEAD = 16 * 1024;
const REQUEST_LINE = /^(GET|HEAD) (\/[\x21-\x7e]*) HTTP\/1\.1$/;
// A token, a colon, a value of visible characters, spaces and tabs: no obs-fold, no bare CR or LF.
const HEADER_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*([^\x00-\x08\x0a-\x1f\x7f]*?)[ \t]*$/;
// A request that has a body, asks for an upgrade or an expectation, or closes: node:http's to read.
const NODE_ONLY = new Set(['content-length', 'transfer-encoding', 'upgrade', 'expect', 'http2-settings']);
const BARE_LF = /(?:^|[^\r])\n/;
const FRONT_METHODS = ['GET', 'HEAD'];
const VERSION = 'HTTP/1.1';
const TARGET_SO_FAR = /^(?:\/[\x21-\x7e]*)?$/;

/**
 * Whether bytes that hold no whole head yet may still become a request line the front takes.
 * When not (a TLS ClientHello, a POST, garbage), the connection is node's at once, so node
 * answers it as it answers every server's (400 for bytes that are not HTTP) instead of the front
 * waiting for a head that never comes.
 */
export function mayBecomeFrontRequest(pending: string): boolean {
  const lineEnd = pending.indexOf('\r\n');
  if (lineEnd !== -1) return REQUEST_LINE.test(pending.slice(0, lineEnd));
  // A CR at the very end may be the line's end arriving.
  const line = pending.endsWith('\r') ? pending.slice(0, -1) : pending;
  const [method = '', target, version, ...more] = line.split(' ');
  if (more.length > 0) return false;
  if (target === undefined) return FRONT_METHODS.some((known) => known.startsWith(method));
  if (!FRONT_METHODS.includes(method) || !TARGET_SO_FAR.test(target)) return false;
  if (version === undefined) return true;
  return target !== '' && VERSION.startsWith(version) && (version === VERSION || !pending.endsWith('\r'));
}

/** The head of a request the front may take, or undefined: anything short of plain goes to node:http. */
export function parseFrontHead(head: string): FrontRequest | undefined {
  const lines = head.split('\r\n');
  const start = REQUEST_LINE.exec(lines[0]!);
  if (start === null) return undefined;
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  for (let index = 1; index < lines.length; index++) {
    const header = HEADER_LINE.exec(lines[index]!);
    if (header === null) return undefined;
    const name = header[1]!.toLowerCase();
    if (NODE_ONLY.has(name) || name in headers) return undefined;
    headers[name] = header[2]!;
  }
  const connection = headers['connection'];
  if (connection !== undefined && connection.toLowerCase() !== 'keep-alive') return undefined;
  return {method: start[1] as 'GET' | 'HEAD', url: start[2]!, headers};
}

// The whole head of an answer — status line, the front's headers, node's Date and keep-alive
// lines — as bytes, made once a second per header list (the front keeps its lists), so an answer
// costs two buffers handed to one writev and nothing else.
interface MadeHead {
  status: number;
  second: number;
  keepAliveSeconds: number;
  bytes: Buffer;
}
const heads = new WeakMap<readonly string[], MadeHead>();

function headOf(answer: FrontAnswer, keepAliveSeconds: number): Buffer {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  const known = heads.get(answer.headers);
  if (known !== undefined && known.status === answer.status && known.second === second && known.keepAliveSeconds === keepAliveSeconds) return known.bytes;
  let text = `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? 'Unknown'}\r\n`;
  for (let index = 0; index < answer.headers.length; index += 2) {
    const name = answer.headers[index]!;
    const value = answer.headers[index + 1]!;
    validateHeaderName(name);
    validateHeaderValue(name, value);
    text += `${name}: ${value}\r\n`;
  }
  text += `Date: ${new Date(now).toUTCString()}\r\nConnection: keep-alive\r\nKeep-Alive: timeout=${keepAliveSeconds}\r\n\r\n`;
  const bytes = Buffer.from(text, 'latin1');
  heads.set(answer.headers, {status: answer.status, second, keepAliveSeconds, bytes});
  return bytes;
}

/**
 * The hot path below node:http (the gateway's figure: cached feeds at the speed of bare node:http,
 * which node's own request and response objects alone keep out of reach). A new connection is
 * read here first: each plain GET/HEAD request the front can answer is answered with one write —
 * the head it would get from node (status, the front's headers, Date, keep-alive) and the bytes.
 * At the first request it cannot take — a body, an upgrade, anything not strictly well formed,
 * a name the front does not hold — the connection goes to node:http for good, the unread bytes
 * put back first, so node parses that request and all after it as if it had read them itself.
 * Never guessing where a body ends is what keeps the two parsers from disagreeing on a request.
 * Bytes that cannot become a request the front takes go to node:http as soon as they arrive (it
 * answers what is not HTTP with 400), and a head still incomplete after the server's
 * `headersTimeout` is answered as node answers it, through the server's `clientError` handler
 * (the kit's: 408): a connection the front holds keeps node's rules for every server alike.
 */
export function installRawFront(server: Server, front: Front, log: RequestLine | undefined): void {
  const nodeListeners = server.listeners('connection') as Array<(socket: Socket) => void>;
  server.removeAllListeners('connection');
  const held = new Set<Socket>();

  server.on('connection', (socket: Socket) => {
    held.add(socket);
    let pending = '';
    let waitingForDrain = false;
    // Runs while a head is awaited: from the connection's start, and from the end of an answered
    // head whose next one has begun; an idle connection between requests has the keep-alive timeout.
    let headTimer: NodeJS.Timeout | undefined;
    const headLate = () => {
      headTimer = undefined;
      handOff();
      const late = Object.assign(new Error('the request head took too long to arrive'), {code: 'ERR_HTTP_REQUEST_TIMEOUT'});
      if (!server.emit('clientError', late, socket)) socket.destroy();
    };
    const awaitHead = () => {
      if (headTimer === undefined && server.headersTimeout > 0) headTimer = setTimeout(headLate, server.headersTimeout);
    };
    const headArrived = () => {
      clearTimeout(headTimer);
      headTimer = undefined;
    };

    const onError = () => socket.destroy();
    const onTimeout = () => socket.destroy();
    const onClose = () => {
      headArrived();
      held.delete(socket);
    };
    const onData = (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk.toString('latin1') : pending + chunk.toString('latin1');
      serve();
    };
    // The front lets go of the connection: no listener of its own is left on it.
    const handOff = () => {
      headArrived();
      held.delete(socket);
      socket.removeListener('data', onData);
      socket.removeListener('error', onError);
      socket.removeListener('timeout', onTimeout);
      socket.removeListener('close', onClose);
      socket.setTimeout(0);
    };
    const handOver = () => {
      handOff();
      socket.pause();
      if (pending.length > 0) socket.unshift(Buffer.from(pending, 'latin1'));
      pending = '';
      for (const listener of nodeListeners) listener.call(server, socket);
      socket.resume();
    };
    const serve = (): void => {
      while (!waitingForDrain) {
        // A client that sends faster than it reads waits, as node:http makes it wait.
        if (socket.writableNeedDrain) {
          waitingForDrain = true;
          socket.pause();
          socket.once('drain', () => {
            waitingForDrain = false;
            socket.resume();
            serve();
          });
          return;
        }
        const end = pending.indexOf('\r\n\r\n');
        if (end === -1 || end > MAX_HEAD) {
          if (end > MAX_HEAD || pending.length > MAX_HEAD || BARE_LF.test(pending) || !mayBecomeFrontRequest(pending)) return handOver();
          if (pending.length > 0) awaitHead();
          else headArrived();
          return;
        }
        const request = parseFrontHead(pending.slice(0, end));
        const answer = request === undefined ? undefined : front(request);
        if (request === undefined || answer === undefined) return handOver();
        headArrived();
        pending = pending.slice(end + 4);
        socket.cork();
        socket.write(headOf(answer, Math.floor(server.keepAliveTimeout / 1000)));
        if (request.method === 'GET' && answer.body !== undefined && answer.body.length > 0) socket.write(answer.body);
        socket.uncork();
        log?.(request.method, request.url, answer.status);
      }
    };

    socket.on('data', onData);
    socket.on('error', onError);
    socket.on('close', onClose);
    socket.setTimeout(server.keepAliveTimeout > 0 ? server.keepAliveTimeout : 5000, onTimeout);
    awaitHead();
  });

  // Closing the server closes the connections it holds between requests, as node does with its own.
  const closeIdle = server.closeIdleConnections.bind(server);
  const closeAll = server.closeAllConnections.bind(server);
  const closeHeld = () => {
    for (const socket of held) socket.destroy();
    held.clear();
  };
  server.closeIdleConnections = () => {
    closeHeld();
    closeIdle();
  };
  server.closeAllConnections = () => {
    closeHeld();
    closeAll();
  };
}
