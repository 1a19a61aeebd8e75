import type {MetricFamily, MetricSample, MetricsSnapshot, SourceSnapshot} from './types.js';

/** What a face shows of one HTTP source (a server, or one dev proxy of the daemon) between two reads. */
export interface HttpFigures {
  /** `reader`, `gateway`, `graphql`, or `proxy:<name>`. */
  name: string;
  requestsPerSecond: number;
  /** Requests answered since the server (or the daemon, for a proxy) started: the counter as read now. */
  requestsTotal: number;
  /** Seconds, from the histogram buckets (upper bound of the bucket the rank falls in); null without requests. */
  p50: number | null;
  p95: number | null;
  p99: number | null;
  /** Requests between the reads by status class. */
  statuses: {'2xx': number; '3xx': number; '4xx': number; '5xx': number};
}

export interface ProcessFigures {
  /** A supervised process's name, or a server's (its own process). */
  name: string;
  /** Share of one core between the reads, 0–100 per core. */
  cpuPercent: number | null;
  residentBytes: number | null;
}

export interface Figures {
  /** Seconds between the two reads. */
  seconds: number;
  sources: {name: string; state: SourceSnapshot['state']; error?: string}[];
  http: HttpFigures[];
  processes: ProcessFigures[];
  /** Errors and warnings per minute by source (the daemon's workbench_errors_total). */
  errors: {source: string; errorsPerMinute: number; warningsPerMinute: number}[];
  alertRing: {entries: number; capacity: number} | null;
  /** Feed fetches per minute: the reader's poller and the gateway's origin polls together. */
  poller: {fetchesPerMinute: number; notModifiedPerMinute: number; failuresPerMinute: number} | null;
  /** Pending CDC outbox events of the GraphQL service, when its model has an outbox. */
  outboxBacklog: number | null;
}

type Up = Extract<SourceSnapshot, {state: 'up'}>;

/** The figures between two reads of the same sources: rates from counters, percentiles from buckets, gauges as last read. */
export function figures(before: MetricsSnapshot, after: MetricsSnapshot): Figures {
  const seconds = Math.max((after.at - before.at) / 1000, 0.001);
  const earlier = new Map(before.sources.filter(isUp).map((snapshot) => [snapshot.source.name, snapshot.families]));
  const result: Figures = {
    seconds,
    sources: after.sources.map((snapshot) =>
      snapshot.state === 'up' ? {name: snapshot.source.name, state: 'up'} : {name: snapshot.source.name, state: snapshot.state, error: snapshot.error},
    ),
    http: [],
    processes: [],
    errors: [],
    alertRing: null,
    poller: null,
    outboxBacklog: null,
  };
  for (const snapshot of after.sources.filter(isUp)) {
    const now = snapshot.families;
    const then = earlier.get(snapshot.source.name) ?? [];
    if (snapshot.source.kind === 'daemon') {
      daemonFigures(now, then, seconds, result);
      continue;
    }
    result.http.push(httpFigures(snapshot.source.name, samplesOf(now, 'http_requests_total'), samplesOf(then, 'http_requests_total'), now, then, seconds));
    const cpu = delta(samplesOf(now, 'process_cpu_seconds_total'), samplesOf(then, 'process_cpu_seconds_total'));
    const memory = samplesOf(now, 'process_resident_memory_bytes')[0]?.value ?? null;
    result.processes.push({name: snapshot.source.name, cpuPercent: then.length ? (cpu / seconds) * 100 : null, residentBytes: memory});
    // The reader's poller and the gateway's origin polls, summed: the feed fetches this machine makes.
    const poller = pollerFigures(now, then, seconds);
    if (poller) result.poller = result.poller ? sumOf(result.poller, poller) : poller;
    const backlog = samplesOf(now, 'workbench_outbox_pending_events')[0];
    if (backlog && !Number.isNaN(backlog.value)) result.outboxBacklog = backlog.value;
  }
  return result;
}

/** Two sets of per-minute figures added field by field. */
function sumOf<T extends Record<string, number>>(a: T, b: T): T {
  return Object.fromEntries(Object.entries(a).map(([name, value]) => [name, value + b[name]!])) as T;
}

function isUp(snapshot: SourceSnapshot): snapshot is Up {
  return snapshot.state === 'up';
}

function samplesOf(families: MetricFamily[], sampleName: string): MetricSample[] {
  const familyName = sampleName.replace(/_(bucket|sum|count)$/, '');
  const family = families.find((candidate) => candidate.name === familyName || candidate.name === sampleName);
  return family ? family.samples.filter((sample) => sample.name === sampleName) : [];
}

const keyOf = (sample: MetricSample) => JSON.stringify(Object.entries(sample.labels).sort());

/** The increase of a counter's samples (summed) between reads; a restart (a smaller value) counts from zero. */
function delta(now: MetricSample[], then: MetricSample[]): number {
  const earlier = new Map(then.map((sample) => [keyOf(sample), sample.value]));
  let total = 0;
  for (const sample of now) {
    const before = earlier.get(keyOf(sample)) ?? 0;
    total += sample.value >= before ? sample.value - before : sample.value;
  }
  return total;
}

function httpFigures(
  name: string,
  now: MetricSample[],
  then: MetricSample[],
  nowFamilies: MetricFamily[],
  thenFamilies: MetricFamily[],
  seconds: number,
  proxy?: string,
): HttpFigures {
  const own = (samples: MetricSample[]) => (proxy === undefined ? samples : samples.filter((sample) => sample.labels.proxy === proxy));
  const requests = own(now);
  const earlier = own(then);
  const statuses = {'2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0};
  let total = 0;
  for (const sample of requests) {
    const increase = delta([sample], earlier);
    total += increase;
    const kind = `${String(sample.labels.status ?? '')[0]}xx` as keyof typeof statuses;
    if (kind in statuses) statuses[kind] += increase;
  }
  const buckets = bucketIncrease(own(samplesOf(nowFamilies, 'http_request_duration_seconds_bucket')), own(samplesOf(thenFamilies, 'http_request_duration_seconds_bucket')));
  const requestsTotal = requests.reduce((sum, sample) => sum + sample.value, 0);
  return {name, requestsPerSecond: total / seconds, requestsTotal, p50: quantile(buckets, 0.5), p95: quantile(buckets, 0.95), p99: quantile(buckets, 0.99), statuses};
}

/** The histogram's increase between reads, every route and method summed, by bucket bound. */
function bucketIncrease(now: MetricSample[], then: MetricSample[]): [number, number][] {
  const bounds = new Map<number, number>();
  const earlier = new Map(then.map((sample) => [keyOf(sample), sample.value]));
  for (const sample of now) {
    const bound = Number(sample.labels.le === '+Inf' ? Infinity : sample.labels.le);
    if (Number.isNaN(bound)) continue;
    const before = earlier.get(keyOf(sample)) ?? 0;
    bounds.set(bound, (bounds.get(bound) ?? 0) + (sample.value >= before ? sample.value - before : sample.value));
  }
  return [...bounds.entries()].sort((a, b) => a[0] - b[0]);
}

/** Prometheus's histogram_quantile without interpolation: the upper bound of the first bucket holding the rank (the highest finite bound for +Inf). */
export function quantile(buckets: [number, number][], q: number): number | null {
  const total = buckets.at(-1)?.[1] ?? 0;
  if (total <= 0) return null;
  const rank = q * total;
  for (const [index, [bound, count]] of buckets.entries()) {
    if (count >= rank) return Number.isFinite(bound) ? bound : (buckets[index - 1]?.[0] ?? null);
  }
  return null;
}

function daemonFigures(now: MetricFamily[], then: MetricFamily[], seconds: number, result: Figures): void {
  const requests = samplesOf(now, 'http_requests_total');
  const proxies = [...new Set(requests.map((sample) => sample.labels.proxy).filter((name): name is string => name !== undefined))].sort();
  for (const proxy of proxies) result.http.push(httpFigures(`proxy:${proxy}`, requests, samplesOf(then, 'http_requests_total'), now, then, seconds, proxy));
  const cpuThen = new Map(samplesOf(then, 'workbench_process_cpu_seconds').map((sample) => [sample.labels.process, sample.value]));
  const memory = new Map(samplesOf(now, 'workbench_process_resident_memory_bytes').map((sample) => [sample.labels.process, sample.value]));
  for (const sample of samplesOf(now, 'workbench_process_cpu_seconds')) {
    const name = sample.labels.process ?? '';
    const before = cpuThen.get(name);
    result.processes.push({name, cpuPercent: before === undefined ? null : (Math.max(sample.value - before, 0) / seconds) * 100, residentBytes: memory.get(name) ?? null});
  }
  const errors = samplesOf(now, 'workbench_errors_total');
  const errorsThen = samplesOf(then, 'workbench_errors_total');
  for (const source of [...new Set(errors.map((sample) => sample.labels.source ?? ''))].sort()) {
    const perMinute = (severity: string) => {
      const pick = (samples: MetricSample[]) => samples.filter((sample) => sample.labels.source === source && sample.labels.severity === severity);
      return (delta(pick(errors), pick(errorsThen)) / seconds) * 60;
    };
    result.errors.push({source, errorsPerMinute: perMinute('error'), warningsPerMinute: perMinute('warning')});
  }
  const entries = samplesOf(now, 'workbench_alert_ring_entries')[0];
  const capacity = samplesOf(now, 'workbench_alert_ring_capacity')[0];
  if (entries && capacity) result.alertRing = {entries: entries.value, capacity: capacity.value};
}

function pollerFigures(now: MetricFamily[], then: MetricFamily[], seconds: number): Figures['poller'] {
  const fetches = samplesOf(now, 'workbench_feed_fetches_total');
  if (fetches.length === 0) return null;
  const earlier = samplesOf(then, 'workbench_feed_fetches_total');
  const perMinute = (result?: string) => {
    const pick = (samples: MetricSample[]) => (result === undefined ? samples : samples.filter((sample) => sample.labels.result === result));
    return (delta(pick(fetches), pick(earlier)) / seconds) * 60;
  };
  return {fetchesPerMinute: perMinute(), notModifiedPerMinute: perMinute('not_modified'), failuresPerMinute: perMinute('failure')};
}
