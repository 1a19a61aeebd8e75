import {createServer, type Server, type Socket} from 'node:net';
import {isWorkbenchError} from '../core/errors.js';
import type {Supervisor} from '../processes/supervisor.js';
import {methods, type MethodContext} from './methods.js';
import {LineSplitter, type DaemonEvent, type Request} from './protocol.js';

/** Serves the daemon's methods on a unix socket, one JSON message per line. */
export function createDaemonServer(supervisor: Supervisor, options: {startedAt: number; shutdown(): void}): Server {
  const server = createServer((socket) => serveConnection(socket, supervisor, options));
  return server;
}

function serveConnection(socket: Socket, supervisor: Supervisor, options: {startedAt: number; shutdown(): void}): void {
  socket.setEncoding('utf8');
  // null means "every process"; a set of ids otherwise.
  let subscribedAll = false;
  const subscribed = new Set<string>();
  const send = (message: unknown) => {
    if (!socket.destroyed && socket.writable) socket.write(JSON.stringify(message) + '\n');
  };
  const wants = (processId: string) => subscribedAll || subscribed.has(processId);
  const onOutput = (processId: string, data: string) => {
    if (wants(processId)) send({event: 'output', processId, data} satisfies DaemonEvent);
  };
  const onChange = (info: import('../processes/types.js').ProcessInfo) => {
    if (wants(info.id)) send({event: 'change', process: info} satisfies DaemonEvent);
  };
  const context: MethodContext = {
    supervisor,
    startedAt: options.startedAt,
    subscribe(processId) {
      if (processId === null) subscribedAll = true;
      else subscribed.add(processId);
      if (supervisor.listeners('output').indexOf(onOutput) < 0) {
        supervisor.on('output', onOutput);
        supervisor.on('change', onChange);
      }
    },
    unsubscribe(processId) {
      if (processId === null) {
        subscribedAll = false;
        subscribed.clear();
      } else subscribed.delete(processId);
    },
    shutdown: options.shutdown,
  };

  const handle = async (line: string) => {
    let request: Request;
    try {
      request = JSON.parse(line);
    } catch {
      send({id: 0, error: {code: 'invalid_argument', message: 'request is not JSON'}});
      return;
    }
    if (typeof request !== 'object' || request === null || typeof request.id !== 'number' || typeof request.method !== 'string') {
      send({id: typeof request?.id === 'number' ? request.id : 0, error: {code: 'invalid_argument', message: 'request needs a numeric id and a method'}});
      return;
    }
    const handler = Object.hasOwn(methods, request.method) ? methods[request.method] : undefined;
    if (!handler) {
      send({id: request.id, error: {code: 'not_found', message: `unknown method "${request.method}"`}});
      return;
    }
    try {
      const result = await handler(request.params, context);
      send({id: request.id, result: result ?? null});
    } catch (error) {
      if (isWorkbenchError(error)) send({id: request.id, error: {code: error.code, message: error.message}});
      else {
        process.stderr.write(`[daemon] ${request.method} failed: ${(error as Error)?.stack ?? error}\n`);
        send({id: request.id, error: {code: 'internal', message: `internal error in ${request.method}: ${(error as Error)?.message ?? error}`}});
      }
    }
  };

  const splitter = new LineSplitter((line) => void handle(line));
  socket.on('data', (chunk: string) => {
    try {
      splitter.push(chunk);
    } catch {
      socket.destroy();
    }
  });
  const cleanup = () => {
    supervisor.off('output', onOutput);
    supervisor.off('change', onChange);
  };
  socket.on('close', cleanup);
  socket.on('error', cleanup);
}
