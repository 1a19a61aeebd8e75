import {hostname} from 'node:os';
import type {FastifyInstance} from 'fastify';
import {LogSink} from '../../source/core/log-sink.js';
import {CLIENT_CLOSED_REQUEST, onClientLeft} from './client-left.js';

/**
 * Opens a server's request log (a LogSink: a full disk drops lines and counts them instead of
 * ending the server). Made before the server starts, so the "see the server log" of a 500 always
 * names a file that exists. The first dropped line says so on stderr, once per spell of failing;
 * the first line written after one says in the log how many were lost.
 */
export function openLogFile(path: string, stderr: (text: string) => void = (text) => process.stderr.write(text)): LogSink {
  return LogSink.open(path, {
    onDropping: (reason) => stderr(`warning: ${path}: ${reason}; log lines are dropped (counted on /metrics as workbench_log_lines_dropped_total) until it takes them again\n`),
    gapLine: (dropped, reason) => pinoLine(40, '', `${dropped} log line${dropped === 1 ? ' was' : 's were'} dropped (${reason})`),
  });
}

// pino's bindings, as its own lines carry them.
const BINDINGS = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())},`;

/** One line of pino's JSON: `fields` is `"name":value,` text (or empty). */
function pinoLine(level: number, fields: string, msg: string, time = Date.now()): string {
  return `{"level":${level},"time":${time}${BINDINGS}${fields}"msg":${JSON.stringify(msg)}}\n`;
}

/** One line per request (method, URL, status, time) instead of fastify's two, and the file closed with the app. */
export function installRequestLog(app: FastifyInstance, stream: LogSink, beforeClose?: () => void): void {
  app.addHook('onResponse', async (request, reply) => {
    request.log.info({status: reply.statusCode, ms: Math.round(reply.elapsedTime)}, `${request.method} ${request.url}`);
  });
  onClientLeft(app, (request, ms) =>
    request.log.info({status: CLIENT_CLOSED_REQUEST, ms: Math.round(ms)}, `${request.method} ${request.url} (the client closed the connection before its answer)`),
  );
  app.addHook('onClose', async () => {
    beforeClose?.();
    await new Promise<void>((resolve) => stream.end(resolve));
  });
}

/** Logs one request the front answered (GET or HEAD; 200 or 304). */
export type RequestLine = (method: string, url: string, status: number) => void;

// The front's requests are counted and written this often.
const COUNT_MS = 1000;
const SLOTS: readonly [method: string, status: number][] = [
  ['GET', 200],
  ['GET', 304],
  ['HEAD', 200],
  ['HEAD', 304],
];

/**
 * The request log for requests answered before fastify sees them (the `front` of createServer:
 * cached bytes, answered in microseconds): counted per URL, method and status and written each
 * second as one line of pino's JSON with a `count` — a pino line per request cost as much as
 * answering it, and thousands of identical lines a second tell no more. flush() writes what is
 * counted (the app's close calls it before the file closes).
 */
export function countedRequestLog(stream: LogSink): {line: RequestLine; flush(): void} {
  let counts = new Map<string, number[]>();
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (counts.size === 0) return;
    const time = Date.now();
    let text = '';
    for (const [url, slots] of counts) {
      slots.forEach((count, slot) => {
        if (count === 0) return;
        const [method, status] = SLOTS[slot]!;
        text += pinoLine(30, `"status":${status},"ms":0,"count":${count},`, `${method} ${url}`, time);
      });
    }
    counts = new Map();
    if (!stream.writableEnded) stream.write(text);
  };
  return {
    line(method, url, status) {
      let slots = counts.get(url);
      if (slots === undefined) counts.set(url, (slots = [0, 0, 0, 0]));
      slots[(method === 'HEAD' ? 2 : 0) + (status === 304 ? 1 : 0)]!++;
      timer ??= setTimeout(flush, COUNT_MS).unref();
    },
    flush,
  };
}
