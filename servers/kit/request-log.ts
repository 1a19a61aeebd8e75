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

/** Logs one answered request. */
export type RequestLine = (method: string, url: string, status: number, ms: number) => void;

// How long lines of the front wait to be written together.
const BATCH_MS = 100;

/**
 * The request log's line (pino's JSON, as installRequestLog writes it) for requests answered
 * before fastify sees them (the `front` of createServer): built by hand and written together
 * every BATCH_MS — pino and a file write per request cost as much as answering a cached feed.
 * flush() writes what waits (the app's close calls it before the file closes).
 */
export function batchedRequestLog(stream: WriteStream): {line: RequestLine; flush(): void} {
  const prefix = `{"level":30,"time":`;
  const bindings = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())},`;
  let pending = '';
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (pending && !stream.writableEnded) stream.write(pending);
    pending = '';
  };
  return {
    line(method, url, status, ms) {
      pending += `${prefix}${Date.now()}${bindings}"status":${status},"ms":${Math.round(ms)},"msg":${JSON.stringify(`${method} ${url}`)}}\n`;
      timer ??= setTimeout(flush, BATCH_MS).unref();
    },
    flush,
  };
}
