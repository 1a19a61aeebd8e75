import {createServer, type Server, type Socket} from 'node:net';
import {isWorkbenchError} from '../core/errors.js';
import type {ProxyChange, ProxyManager, TrafficBatch} from '../devproxy/manager.js';
import {parseKey, shortId} from '../processes/project-key.js';
import type {Supervisor} from '../processes/supervisor.js';
import {homeProject} from '../project/project-root.js';
import type {ProcessInfo} from '../processes/types.js';
import type {MethodContext} from './handlers/context.js';
import type {Inbox, InboxChange} from './inbox.js';
import {dispatch} from './handlers/dispatch.js';
import type {SurvivingProcess} from './protocol/daemon.js';
import type {DaemonEvent, Topic} from './protocol/events.js';
import {LineSplitter, type Request} from './protocol/wire.js';

export interface DaemonServerOptions {
  /** The dev proxies this daemon owns. */
  proxies: ProxyManager;
  /** The error inbox over the supervisor's alerts and the proxies' logs: one per daemon, not per server. */
  inbox: Inbox;
  startedAt: number;
  survivors(): SurvivingProcess[];
  shutdown(): void;
}

/** Serves the daemon's methods on a unix socket, one JSON message per line. */
export function createDaemonServer(supervisor: Supervisor, options: DaemonServerOptions): Server {
  const server = createServer((socket) => serveConnection(socket, supervisor, options));
  return server;
}

function serveConnection(socket: Socket, supervisor: Supervisor, options: DaemonServerOptions): void {
  socket.setEncoding('utf8');
  // The home's own services (the feed reader the TUI starts) are seen from every project.
  const shared = [homeProject()];
  const topics = new Set<Topic>();
  // `output` of every process, or of these ids only.
  let allOutput = false;
  const outputIds = new Set<string>();
  const send = (message: unknown) => {
    if (!socket.destroyed && socket.writable) socket.write(JSON.stringify(message) + '\n');
  };
  const push = (event: DaemonEvent) => send(event);
  const onOutput = (key: string, data: string, end: number) => {
    if (!topics.has('output') || !(allOutput || outputIds.has(key))) return;
    const {project, id} = parseKey(key);
    push({event: 'output', processId: id, project, data, end});
  };
  const onChange = (process: ProcessInfo) => {
    if (topics.has('processes')) push({event: 'processes', process});
  };
  const offAlerts = supervisor.alerts.onChange((key, alerts) => {
    const {project, id} = parseKey(key);
    if (topics.has('alerts')) push({event: 'alerts', processId: id, project, alerts});
  });
  const onInbox = ({processes, proxies}: InboxChange) => {
    if (topics.has('inbox')) push({event: 'inbox', processes: [...new Set(processes.map(shortId))], proxies});
  };
  const onProxyChange = ({proxy, running}: ProxyChange) => {
    if (topics.has('proxies')) push({event: 'proxies', proxy, running});
  };
  // The manager gathers traffic only while someone listens: a connection listens once it subscribes.
  const onTraffic = ({proxyId, entries}: TrafficBatch) => {
    if (topics.has('traffic')) push({event: 'traffic', proxyId, entries});
  };
  // Output is turned into text for a connection only once it asks for it.
  supervisor.on('change', onChange);
  options.proxies.on('change', onProxyChange);
  options.inbox.on('changed', onInbox);
  const context: MethodContext = {
    supervisor,
    proxies: options.proxies,
    inbox: options.inbox,
    startedAt: options.startedAt,
    shared,
    survivors: options.survivors,
    subscribe(topic, processId) {
      topics.add(topic);
      if (topic === 'traffic' && !options.proxies.listeners('traffic').includes(onTraffic)) options.proxies.on('traffic', onTraffic);
      if (topic !== 'output') return;
      if (!supervisor.listeners('output').includes(onOutput)) supervisor.on('output', onOutput);
      if (processId === undefined) allOutput = true;
      else outputIds.add(processId);
    },
    unsubscribe(topic, processId) {
      if (topic === 'output') {
        if (processId === undefined) allOutput = false;
        else outputIds.delete(processId);
        if (allOutput || outputIds.size > 0) return;
      }
      topics.delete(topic);
      if (topic === 'traffic') options.proxies.off('traffic', onTraffic);
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
    try {
      const result = await dispatch(request.method, request.params, context);
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
  let cleaned = false;
  const cleanup = () => {
    if (cleaned) return;
    cleaned = true;
    supervisor.off('output', onOutput);
    supervisor.off('change', onChange);
    options.proxies.off('change', onProxyChange);
    options.proxies.off('traffic', onTraffic);
    options.inbox.off('changed', onInbox);
    offAlerts();
  };
  socket.on('close', cleanup);
  socket.on('error', cleanup);
}
