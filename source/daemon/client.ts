import {connect, type Socket} from 'node:net';
import {WorkbenchError, type ErrorCode} from '../core/errors.js';
import {daemonSocketPath} from '../core/paths.js';
import type {DaemonEvent, DaemonEvents, Topic} from './protocol/events.js';
import {homeProject, projectRoot} from '../project/project-root.js';
import type {MethodName, ParamsArgs, Result} from './protocol/index.js';
import {LineSplitter, type Response} from './protocol/wire.js';
import {verifySocket} from './socket-guard.js';

const CALL_TIMEOUT_MS = 60_000;

/**
 * The methods whose params take the caller's `project` (see protocol/define.ts). Named here, not
 * read off the protocol's schemas: a command that only calls the daemon then loads no schema
 * (the proxies' among them); test/unit/daemon/project-methods.test.ts holds the two together.
 */
export const PROJECT_METHODS: ReadonlySet<MethodName> = new Set<MethodName>([
  'proc.start',
  'proc.list',
  'proc.get',
  'proc.output',
  'proc.stop',
  'proc.restart',
  'proc.remove',
  'events.subscribe',
  'events.unsubscribe',
  'errors.query',
  'incidents.query',
  'alerts.list',
]);

type Listener<T extends Topic> = (event: DaemonEvents[T]) => void;
interface Subscription {
  topic: Topic;
  id?: string;
  listener: (event: DaemonEvent) => void;
}

/**
 * A connection to the daemon. Calls are multiplexed by id; events go to subscribers. Processes
 * belong to their project: every call that names one carries the client's `project` (the root of
 * the folder it was made in, unless set), and the process events of other projects are dropped
 * (the home's shared services excepted), so whoever holds a client sees its project only.
 */
export class DaemonClient {
  private nextId = 1;
  private projectRoot: string | undefined;
  private sharedRoots: string[] | undefined;
  private readonly pending = new Map<number, {resolve: (value: unknown) => void; reject: (error: Error) => void; timer: NodeJS.Timeout}>();
  private readonly subscriptions = new Set<Subscription>();
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

  /** Connects after checking that the socket and its directory are this user's (see socket-guard). */
  static connect(socketPath = daemonSocketPath(), timeoutMs = 2000): Promise<DaemonClient> {
    try {
      verifySocket(socketPath);
    } catch (error) {
      return Promise.reject(error);
    }
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

  /** The project this client works in (realpath'd root); the folder it was made in unless set. */
  get project(): string {
    this.projectRoot ??= projectRoot();
    return this.projectRoot;
  }

  set project(root: string) {
    this.projectRoot = root;
  }

  /** Calls a daemon method; params and result are typed by the method's entry in the protocol. */
  call<M extends MethodName>(method: M, ...[given]: ParamsArgs<M>): Promise<Result<M>> {
    if (this.closed) return Promise.reject(new WorkbenchError('daemon_not_connected', 'daemon not connected: the connection closed'));
    let params: unknown = given;
    try {
      params = this.withProject(method, given);
    } catch (error) {
      return Promise.reject(error);
    }
    const id = this.nextId++;
    return new Promise<Result<M>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new WorkbenchError('daemon_not_connected', `daemon not connected: no answer to ${method} within ${CALL_TIMEOUT_MS / 1000} s`));
      }, CALL_TIMEOUT_MS);
      this.pending.set(id, {resolve: resolve as (value: unknown) => void, reject, timer});
      this.socket.write(JSON.stringify({id, method, params}) + '\n');
    });
  }

  /**
   * Listens to a topic the daemon pushes (see protocol/events.ts); resolves once the daemon has
   * the subscription, so nothing that happens after is missed. `id` narrows `output` to one
   * process. Call the returned function to stop listening.
   */
  async subscribe<T extends Topic>(topic: T, listener: Listener<T>, options: {id?: string} = {}): Promise<() => Promise<void>> {
    const subscription: Subscription = {topic, id: options.id, listener: listener as unknown as (event: DaemonEvent) => void};
    this.subscriptions.add(subscription);
    try {
      await this.call('events.subscribe', {topic, id: options.id});
    } catch (error) {
      this.subscriptions.delete(subscription);
      throw error;
    }
    return async () => {
      if (!this.subscriptions.delete(subscription)) return;
      const still = [...this.subscriptions].some((other) => other.topic === topic && (topic !== 'output' || other.id === options.id));
      if (!still && !this.closed) await this.call('events.unsubscribe', {topic, id: options.id}).catch(() => undefined);
    };
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

  private withProject(method: MethodName, params: unknown): unknown {
    if (!PROJECT_METHODS.has(method)) return params;
    const given = (params ?? {}) as {project?: string};
    return given.project === undefined ? {...given, project: this.project} : params;
  }

  /** Whether a process event is of this client's project or of a shared one. */
  private inView(project: string): boolean {
    this.sharedRoots ??= [homeProject()];
    if (this.sharedRoots.includes(project)) return true;
    try {
      return project === this.project;
    } catch {
      return false; // The client's folder is gone: it names no project of its own.
    }
  }

  private receive(line: string): void {
    let message: Response | DaemonEvent;
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    if ('event' in message) {
      if (message.event === 'processes' && !this.inView(message.process.project ?? '')) return;
      if ((message.event === 'output' || message.event === 'alerts') && !this.inView(message.project ?? '')) return;
      for (const subscription of this.subscriptions) {
        if (subscription.topic !== message.event) continue;
        if (message.event === 'output' && subscription.id !== undefined && subscription.id !== message.processId) continue;
        subscription.listener(message);
      }
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
