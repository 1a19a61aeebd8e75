import {collectDefaultMetrics, Registry} from 'prom-client';
import {HttpTallies} from './http-tallies.js';

/**
 * The HTTP metrics every workbench server (and each dev proxy) keeps, on a registry of its own:
 * a process-global registry would mix servers that share a process (tests, the daemon's proxies).
 * Names and labels are a public contract for Grafana users (source/metrics/README.md).
 */

// Latency buckets for a local API: a cache hit is well under a millisecond, a slow query seconds.
export const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The Prometheus text format's content type, as prom-client writes it. */
export const TEXT_FORMAT = 'text/plain; version=0.0.4; charset=utf-8';

/** Whether instrumentation is on: `WORKBENCH_METRICS=off` turns it off (the overhead benchmark's "off" side). */
export function metricsEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.WORKBENCH_METRICS !== 'off';
}

export interface HttpMetrics {
  /** Counts one answered request and its duration; `extra` holds the values of the extra labels (a proxy's name). */
  observe(labels: {route: string; method: string; status: number}, seconds: number, extra?: Record<string, string>): void;
}

/** `http_requests_total{route,method,status}` and `http_request_duration_seconds{route,method}` on a registry, with extra labels first (`proxy`). */
export function httpMetrics(registry: Registry, extraLabels: string[] = []): HttpMetrics {
  const tallies = new HttpTallies(registry, [...extraLabels, 'route', 'method', 'status'], LATENCY_BUCKETS);
  const withoutExtra = tallies.recorder();
  const byExtra = new Map<string, ReturnType<HttpTallies['recorder']>>();
  return {
    observe({route, method, status}, seconds, extra) {
      let record = withoutExtra;
      if (extra !== undefined) {
        const key = extraLabels.length === 1 ? extra[extraLabels[0]!]! : extraLabels.map((name) => extra[name]).join('\0');
        const known = byExtra.get(key);
        if (known) record = known;
        else byExtra.set(key, (record = tallies.recorder(Object.fromEntries(extraLabels.map((name) => [name, extra[name] ?? ''])))));
      }
      record(route, method, status, seconds);
    },
  };
}

let processMetrics: Registry | undefined;

/**
 * prom-client's process metrics (CPU, memory, event loop, GC) of this process, on one registry of
 * their own made on first need: they describe the process, not a server, and each collection
 * starts monitors that are never stopped, so servers sharing a process share it.
 */
export function processRegistry(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    collectDefaultMetrics({register: processMetrics});
  }
  return processMetrics;
}

/** The text format of a server's registry followed by the process metrics. */
export async function exposition(registry: Registry): Promise<string> {
  const [own, shared] = await Promise.all([registry.metrics(), processRegistry().metrics()]);
  return own + shared;
}
