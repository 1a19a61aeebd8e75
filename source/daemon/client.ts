import {connect, type Socket} from 'node:net';
import {WorkbenchError, type ErrorCode} from '../core/errors.js';
import {daemonSocketPath} from '../core/paths.js';
import {LineSplitter, type DaemonEvent, type Response} from './protocol.js';

const CALL_TIMEOUT_MS = 60_000;

/** A connection to the daemon. Calls are multiplexed by id; events go to subscribers. */
export class DaemonClient {
  private nextId = 1;
  private readonly pending = new Map<number, {resolve: (value: unknown) => void; reject: (error: Error) => void; timer: NodeJS.Timeout}>();
  private readonly listeners = new Set<(event: DaemonEvent) => void>();
  private closed = false;

  private constructor(private readonly socket: Socket) {
    socket.setEncoding('utf8');
    const splitter = new LineSplitter((line) => this.receive(line));
    socket.on('data', (chunk: string) => {
      try {
        splitter.push(chunk);
      } catch (error) {
        socket.destroy(error as Error);
      }
    });
    socket.on('close', () => this.fail(new WorkbenchError('daemon_not_connected', 'daemon not connected: the connection closed')));
    socket.on('error', () => undefined);
  }

  static connect(socketPath = daemonSocketPath(), timeoutMs = 2000): Promise<DaemonClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(socketPath);
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new WorkbenchError('daemon_not_connected', `daemon not connected: no answer on ${socketPath} within ${timeoutMs} ms`));
      }, timeoutMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        resolve(new DaemonClient(socket));
      });
      socket.once('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(new WorkbenchError('daemon_not_connected', `daemon not connected: ${error.code ?? error.message} on ${socketPath}`));
      });
    });
  }

  call<T>(method: string, params?: unknown): Promise<T> {
    if (this.closed) return Promise.reject(new WorkbenchError('daemon_not_connected', 'daemon not connected: the connection closed'));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new WorkbenchError('daemon_not_connected', `daemon not connected: no answer to ${method} within ${CALL_TIMEOUT_MS / 1000} s`));
      }, CALL_TIMEOUT_MS);
      this.pending.set(id, {resolve: resolve as (value: unknown) => void, reject, timer});
      this.socket.write(JSON.stringify({id, method, params}) + '\n');
    });
  }

  onEvent(listener: (event: DaemonEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves when the daemon closes the connection (it stopped or died). */
  closedPromise(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => this.socket.once('close', () => resolve()));
  }

  close(): void {
    this.closed = true;
    this.socket.end();
    this.socket.destroy();
  }

  private receive(line: string): void {
    let message: Response | DaemonEvent;
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    if ('event' in message) {
      for (const listener of this.listeners) listener(message);
      return;
    }
    const waiter = this.pending.get(message.id);
    if (!waiter) return;
    this.pending.delete(message.id);
    clearTimeout(waiter.timer);
    if ('error' in message) waiter.reject(new WorkbenchError(message.error.code as ErrorCode, message.error.message));
    else waiter.resolve(message.result);
  }

  private fail(error: Error): void {
    this.closed = true;
    for (const [id, waiter] of this.pending) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
      this.pending.delete(id);
    }
  }
}
