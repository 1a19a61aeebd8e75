import {collectDefaultMetrics, Counter, Histogram, Registry} from 'prom-client';

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
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status code.',
    labelNames: [...extraLabels, 'route', 'method', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request to answer, by route pattern and method.',
    labelNames: [...extraLabels, 'route', 'method'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  // prom-client hashes a label object on every call (~8 µs for both metrics); a child bound to its
  // labels once, looked up by a plain string key, keeps a request's cost well under a microsecond.
  const bound = new Map<string, {inc(): void; observe(seconds: number): void}>();
  return {
    observe({route, method, status}, seconds, extra) {
      const extraKey = extra === undefined ? '' : extraLabels.map((name) => extra[name]).join('\0');
      const key = `${extraKey}\0${route}\0${method}\0${status}`;
      let child = bound.get(key);
      if (!child) {
        const counter = requests.labels({...extra, route, method, status: String(status)});
        const histogram = duration.labels({...extra, route, method});
        child = {inc: () => counter.inc(), observe: (value) => histogram.observe(value)};
        bound.set(key, child);
      }
      child.inc();
      child.observe(seconds);
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
