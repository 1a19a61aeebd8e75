import type {IncomingMessage} from 'node:http';
import type {Duplex} from 'node:stream';
import {headerRecord} from '../log/header-record.js';
import type {Forwarder} from './forward.js';
import {describeFailure, failureMessage} from './failure.js';
import {traceFor} from './traceparent.js';
import {upstreamHeaders} from './upstream-headers.js';

/**
 * A WebSocket (or other) upgrade forwarded to the target and, once the target agrees, piped raw
 * both ways: the proxy reads no frame of it, so HMR and any app socket work as without it.
 * `track` learns every socket so that stopping the proxy can close them.
 */
export function forwardUpgrade(forwarder: Forwarder, request: IncomingMessage, socket: Duplex, head: Buffer, track: (socket: Duplex) => void): void {
  const {target, timeoutMs, record} = forwarder.options;
  const timestamp = Date.now();
  const started = performance.now();
  const method = request.method ?? 'GET';
  const url = request.url ?? '/';
  const trace = traceFor(request.headers.traceparent);
  track(socket);
  socket.on('error', () => socket.destroy());
  const upstream = forwarder.transport.request({
    hostname: target.hostname,
    port: target.port,
    method,
    path: target.basePath + url,
    headers: upstreamHeaders(request, target, trace.header),
    // Its own connection: an upgraded socket never goes back to the keep-alive pool.
    agent: false,
    setHost: false,
    rejectUnauthorized: false,
  });
  const entry = (status: number, responseHeaders: Record<string, string>, error?: string) =>
    record({
      type: 'http',
      method,
      url,
      status,
      timestamp,
      traceId: trace.traceId,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      requestHeaders: headerRecord(request.headers),
      responseHeaders,
      requestBytes: 0,
      responseBytes: 0,
      ...(error ? {error} : {}),
      ...(request.headers.referer ? {page: request.headers.referer} : {}),
    });
  upstream.setTimeout(timeoutMs, () => upstream.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), {code: 'ETIMEDOUT'})));
  upstream.on('upgrade', (answer, targetSocket, targetHead) => {
    upstream.setTimeout(0);
    targetSocket.setTimeout(0);
    track(targetSocket);
    socket.write(statusLine(answer) + rawHeaderLines(answer.rawHeaders) + '\r\n');
    if (targetHead.length > 0) socket.write(targetHead);
    if (head.length > 0) targetSocket.write(head);
    targetSocket.on('error', () => socket.destroy());
    socket.on('close', () => targetSocket.destroy());
    targetSocket.on('close', () => socket.destroy());
    targetSocket.pipe(socket);
    socket.pipe(targetSocket);
    entry(answer.statusCode ?? 101, headerRecord(answer.headers));
  });
  upstream.on('response', (answer) => {
    // The target refused the upgrade: its plain answer goes back as it is, and the connection ends.
    socket.write(
      statusLine(answer) +
        rawHeaderLines(answer.rawHeaders.filter((_, index, all) => !/^(connection|transfer-encoding)$/i.test(all[index - (index % 2)]!))) +
        'connection: close\r\n\r\n',
    );
    answer.pipe(socket);
    entry(answer.statusCode ?? 0, headerRecord(answer.headers));
  });
  upstream.on('error', (error) => {
    const failure = describeFailure(error);
    const message = failureMessage(target, failure, false);
    record({type: 'diagnostic', level: 'error', category: failure.code, message, timestamp: Date.now(), method, url, inHttpEntry: true});
    entry(0, {}, `${failure.code}: ${message}`);
    socket.end('HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\n\r\n' + message + '\n');
  });
  upstream.end();
}

function statusLine(answer: IncomingMessage): string {
  return `HTTP/1.1 ${answer.statusCode} ${answer.statusMessage ?? ''}\r\n`;
}

function rawHeaderLines(raw: string[]): string {
  let lines = '';
  for (let index = 0; index + 1 < raw.length; index += 2) lines += `${raw[index]}: ${raw[index + 1]}\r\n`;
  return lines;
}
