import {createServer, type Server} from 'node:http';
import {Counter, Registry} from 'prom-client';
import {HTTP_STATUS} from '../core/errors.js';
import type {ProxyManager} from '../devproxy/manager.js';
import {proxyMetrics} from '../devproxy/metrics.js';
import {exposition, metricsEnabled, TEXT_FORMAT} from '../metrics/registry.js';
import {countDroppedLogLines} from '../metrics/log-drops.js';
import type {LogSink} from '../core/log-sink.js';
import {hostRefusal} from '../net/local-guard.js';
import {supervisorMetrics} from '../processes/metrics.js';
import type {Supervisor} from '../processes/supervisor.js';
import {announceService, withdrawService} from '../services/registry.js';

export interface MetricsEndpoint {
  url: string;
  close(): Promise<void>;
}

/** The daemon's registry: its supervised processes, alert ring, errors by source, dev proxies and the lines its log dropped. */
export function daemonRegistry(supervisor: Supervisor, proxies: ProxyManager, logs: readonly LogSink[] = []): Registry {
  const registry = new Registry();
  countDroppedLogLines(registry, 'daemon', logs);
  const errors = new Counter({
    name: 'workbench_errors_total',
    help: 'Errors and warnings seen, by source (a process name or proxy:<name>) and severity.',
    labelNames: ['source', 'severity'],
    registers: [registry],
  });
  supervisorMetrics(registry, supervisor, errors);
  if (!metricsEnabled()) return registry;
  const proxy = proxyMetrics(registry, errors);
  const watching = new Map<string, () => void>();
  for (const id of proxies.ids()) watching.set(id, proxy.watch(id, proxies.get(id)));
  proxies.on('change', ({proxy: info, running}) => {
    watching.get(info.id)?.();
    watching.delete(info.id);
    if (running) watching.set(info.id, proxy.watch(info.id, proxies.get(info.id)));
  });
  return registry;
}

/**
 * The daemon speaks JSON over a unix socket; Prometheus, Grafana and `workbench metrics` read HTTP.
 * So it also listens on 127.0.0.1 (a free port) for `GET /metrics` and `GET /health`, with the
 * servers' Host check (DNS rebinding), and announces itself in the service registry as `daemon`,
 * where collectMetrics finds it like any server.
 */
export async function startMetricsEndpoint(registry: Registry): Promise<MetricsEndpoint> {
  const server: Server = createServer((request, response) => {
    const refusal = hostRefusal(request.headers.host, request.socket);
    if (refusal) {
      response.writeHead(HTTP_STATUS[refusal.code], {'content-type': 'application/json'}).end(JSON.stringify({error: {code: refusal.code, message: refusal.message}}));
      return;
    }
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response
        .writeHead(405, {'content-type': 'application/json', allow: 'GET, HEAD'})
        .end(JSON.stringify({error: {code: 'method_not_allowed', message: `${request.method} is not allowed; use GET`}}));
    } else if (path === '/metrics') {
      exposition(registry).then(
        (text) => response.writeHead(200, {'content-type': TEXT_FORMAT}).end(text),
        () => response.writeHead(500, {'content-type': 'application/json'}).end(JSON.stringify({error: {code: 'internal', message: 'collecting the metrics failed'}})),
      );
    } else if (path === '/health') {
      response.writeHead(200, {'content-type': 'application/json'}).end('{"ok":true}');
    } else {
      response
        .writeHead(404, {'content-type': 'application/json'})
        .end(JSON.stringify({error: {code: 'not_found', message: `${path} not found; the daemon serves /metrics and /health`}}));
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const {port} = server.address() as {port: number};
  const url = `http://127.0.0.1:${port}`;
  announceService({name: 'daemon', url, health: `${url}/health`});
  return {
    url,
    async close() {
      withdrawService('daemon');
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
