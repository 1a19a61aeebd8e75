import type {MetricFamily, MetricsSnapshot, SourceSnapshot} from '../metrics/types.js';
import {STATUS_CLASSES, type DashboardFrame, type ProcessFigures, type ServerFigures, type StatusClass} from './frame.js';

/**
 * The metric names the dashboard reads: prom-client's defaults for the process, the usual HTTP
 * histogram for requests, and the daemon's own families. One place to align with the servers.
 */
export const METRIC = {
  requests: 'http_requests_total',
  requestDuration: 'http_request_duration_seconds',
  cpu: 'process_cpu_seconds_total',
  memory: 'process_resident_memory_bytes',
  alerts: 'workbench_alerts_total',
  ringUsed: 'workbench_alert_ring_entries',
  ringCapacity: 'workbench_alert_ring_capacity',
  pollerFetches: 'workbench_poller_fetches_total',
  outboxBacklog: 'workbench_outbox_backlog',
} as const;

type Up = Extract<SourceSnapshot, {state: 'up'}>;

function family(source: Up | undefined, name: string): MetricFamily | undefined {
  return source?.families.find((entry) => entry.name === name);
}

function sum(source: Up | undefined, name: string, sample: string, where: (labels: Record<string, string>) => boolean = () => true): number | undefined {
  const found = family(source, name);
  if (!found) return undefined;
  return found.samples.filter((entry) => entry.name === sample && where(entry.labels)).reduce((total, entry) => total + entry.value, 0);
}

/** A counter's increase between two reads; a restarted process (counter went down) counts from zero. */
const increase = (before: number | undefined, after: number) => (before === undefined || after < before ? after : after - before);

/** Cumulative bucket counts by upper bound, summed over every label but `le`. */
function buckets(source: Up | undefined): Map<number, number> {
  const result = new Map<number, number>();
  for (const sample of family(source, METRIC.requestDuration)?.samples ?? []) {
    if (!sample.name.endsWith('_bucket') || sample.labels.le === undefined) continue;
    const bound = sample.labels.le === '+Inf' ? Infinity : Number(sample.labels.le);
    result.set(bound, (result.get(bound) ?? 0) + sample.value);
  }
  return result;
}

/** Prometheus's histogram_quantile: linear interpolation inside the bucket the rank falls in. */
export function histogramQuantile(quantile: number, cumulative: Array<[bound: number, count: number]>): number | undefined {
  const sorted = [...cumulative].sort((a, b) => a[0] - b[0]);
  const total = sorted.at(-1)?.[1] ?? 0;
  if (total <= 0) return undefined;
  const rank = quantile * total;
  let lowerBound = 0;
  let lowerCount = 0;
  for (const [bound, count] of sorted) {
    if (count >= rank) {
      // The +Inf bucket has no upper edge: the highest finite bound is the best answer, as in Prometheus.
      if (bound === Infinity) return lowerBound;
      return lowerBound + ((bound - lowerBound) * (rank - lowerCount)) / Math.max(count - lowerCount, Number.MIN_VALUE);
    }
    lowerBound = bound;
    lowerCount = count;
  }
  return lowerBound;
}

function serverFigures(before: SourceSnapshot | undefined, after: SourceSnapshot, seconds: number): ServerFigures {
  if (after.state !== 'up') return {source: after.source, state: after.state, error: after.error};
  const previous = before?.state === 'up' ? before : undefined;
  const figures: ServerFigures = {source: after.source, state: 'up'};
  const total = sum(after, METRIC.requests, METRIC.requests);
  if (total === undefined) return figures;
  figures.requestsTotal = total;
  if (!previous) return figures;
  const requests = increase(sum(previous, METRIC.requests, METRIC.requests), total);
  figures.requestsPerSecond = requests / seconds;
  const earlier = buckets(previous);
  const delta = [...buckets(after)].map(([bound, count]): [number, number] => [bound, increase(earlier.get(bound), count)]);
  const quantile = (q: number) => (histogramQuantile(q, delta) ?? 0) * 1000;
  figures.latency = {p50: quantile(0.5), p95: quantile(0.95), p99: quantile(0.99)};
  figures.status = Object.fromEntries(
    STATUS_CLASSES.map((statusClass) => {
      const of = (labels: Record<string, string>) => labels.status?.startsWith(statusClass[0]!) === true;
      const count = (source: Up) => sum(source, METRIC.requests, METRIC.requests, of) ?? 0;
      return [statusClass, increase(count(previous), count(after))];
    }),
  ) as Record<StatusClass, number>;
  return figures;
}

function processFigures(before: SourceSnapshot | undefined, after: Up, seconds: number): ProcessFigures | undefined {
  const cpu = sum(after, METRIC.cpu, METRIC.cpu);
  const memory = sum(after, METRIC.memory, METRIC.memory);
  if (cpu === undefined || memory === undefined) return undefined;
  const earlier = before?.state === 'up' ? sum(before, METRIC.cpu, METRIC.cpu) : undefined;
  return {name: after.source.name, cpuPercent: earlier === undefined ? 0 : (increase(earlier, cpu) / seconds) * 100, memoryMb: memory / 1024 / 1024};
}

/** The daemon's own figures: alerts per minute by source, the ring's fill, the poller, the outbox. */
function daemonFigures(before: SourceSnapshot | undefined, after: Up, seconds: number): Partial<DashboardFrame> {
  const previous = before?.state === 'up' ? before : undefined;
  const result: Partial<DashboardFrame> = {};
  const alerts = family(after, METRIC.alerts);
  if (alerts && previous) {
    const perMinute: Record<string, {errors: number; warnings: number}> = {};
    for (const sample of alerts.samples) {
      const name = sample.labels.source ?? 'unknown';
      const earlier = family(previous, METRIC.alerts)?.samples.find((entry) => JSON.stringify(entry.labels) === JSON.stringify(sample.labels))?.value;
      const rate = (increase(earlier, sample.value) / seconds) * 60;
      const entry = (perMinute[name] ??= {errors: 0, warnings: 0});
      if (sample.labels.severity === 'error') entry.errors += rate;
      else entry.warnings += rate;
    }
    result.alertsPerMinute = perMinute;
  }
  const used = sum(after, METRIC.ringUsed, METRIC.ringUsed);
  const capacity = sum(after, METRIC.ringCapacity, METRIC.ringCapacity);
  if (used !== undefined && capacity) result.alertRing = {used, capacity};
  const fetches = family(after, METRIC.pollerFetches);
  if (fetches && previous) {
    const of = (result: string) =>
      increase(
        sum(previous, METRIC.pollerFetches, METRIC.pollerFetches, (labels) => labels.result === result),
        sum(after, METRIC.pollerFetches, METRIC.pollerFetches, (labels) => labels.result === result) ?? 0,
      );
    result.poller = {fetches: of('ok'), notModified: of('not_modified'), failures: of('failed')};
  }
  const backlog = sum(after, METRIC.outboxBacklog, METRIC.outboxBacklog);
  if (backlog !== undefined) result.outboxBacklog = backlog;
  return result;
}

/** Two snapshots (the previous may be missing at the first refresh) → the figures one refresh shows. */
export function frameFromSnapshots(before: MetricsSnapshot | undefined, after: MetricsSnapshot): DashboardFrame {
  const seconds = before ? Math.max(0.001, (after.at - before.at) / 1000) : 1;
  const earlier = (name: string) => before?.sources.find((entry) => entry.source.name === name);
  const frame: DashboardFrame = {at: after.at, servers: [], processes: []};
  for (const source of after.sources) {
    if (source.source.kind !== 'daemon') frame.servers.push(serverFigures(earlier(source.source.name), source, seconds));
    if (source.state !== 'up') continue;
    const process = processFigures(earlier(source.source.name), source, seconds);
    if (process) frame.processes.push(process);
    if (source.source.kind === 'daemon') Object.assign(frame, daemonFigures(earlier(source.source.name), source, seconds));
  }
  return frame;
}
