import {closeSync, createWriteStream, fchmodSync, fstatSync, openSync, type WriteStream} from 'node:fs';
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
export function installRequestLog(app: FastifyInstance, stream: WriteStream): void {
  app.addHook('onResponse', async (request, reply) => {
    request.log.info({status: reply.statusCode, ms: Math.round(reply.elapsedTime)}, `${request.method} ${request.url}`);
  });
  app.addHook('onClose', async () => {
    await new Promise<void>((resolve) => stream.end(resolve));
  });
}
