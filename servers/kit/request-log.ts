import {closeSync, createWriteStream, fchmodSync, fstatSync, openSync, type WriteStream} from 'node:fs';
import {hostname} from 'node:os';
import {dirname} from 'node:path';
import type {FastifyInstance} from 'fastify';
import {ensureDirectory} from '../../source/core/paths.js';

/**
 * Opens a server's request log for appending: the file 0600 in a 0700 folder (requests name
 * tokens and feeds), tightened when it already exists looser. Made before the server starts, so
 * the "see the server log" of a 500 always names a file that exists.
 */
export function openLogFile(path: string): WriteStream {
  ensureDirectory(dirname(path));
  const fd = openSync(path, 'a', 0o600);
  try {
    if ((fstatSync(fd).mode & 0o077) !== 0) fchmodSync(fd, 0o600);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return createWriteStream(path, {fd, flags: 'a'});
}

/** One line per request (method, URL, status, time) instead of fastify's two, and the file closed with the app. */
export function installRequestLog(app: FastifyInstance, stream: WriteStream, beforeClose?: () => void): void {
  app.addHook('onResponse', async (request, reply) => {
    request.log.info({status: reply.statusCode, ms: Math.round(reply.elapsedTime)}, `${request.method} ${request.url}`);
  });
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
export function countedRequestLog(stream: WriteStream): {line: RequestLine; flush(): void} {
  const bindings = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())},`;
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
        text += `{"level":30,"time":${time}${bindings}"status":${status},"ms":0,"count":${count},"msg":${JSON.stringify(`${method} ${url}`)}}\n`;
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
