import type {Metric, Registry} from 'prom-client';

/**
 * `http_requests_total` and `http_request_duration_seconds` kept as plain tallies and handed to
 * prom-client's registry as two metrics of its own (`registerMetric`), which formats them at scrape time.
 *
 * Why not prom-client's Counter and Histogram: their `inc`/`observe` hash and validate the label
 * object on every call, even on a child from `labels()` — 2.1 µs a request for the two, on the hot
 * path of every server and dev proxy. Here a request is three Map lookups, a bucket search and
 * three additions: 0.13 µs (bench/metrics-overhead.mjs measures the share of a proxy's CPU).
 */

interface Tally {
  labels: Record<string, string>;
  count: number;
  sum: number;
  /** Per-bucket counts (not cumulative), one per upper bound; beyond the last: only `count`. */
  buckets: Float64Array;
}

export class HttpTallies {
  private readonly tallies = new Set<Tally>();

  constructor(
    registry: Registry,
    private readonly labelNames: string[],
    private readonly upperBounds: number[],
  ) {
    // The counter's labels include `status`; the histogram's do not (one series per route and method).
    const counter: TalliedMetric = {
      name: 'http_requests_total',
      help: 'HTTP requests answered, by route pattern, method and status code.',
      type: 'counter',
      aggregator: 'sum',
      get: async () => this.counterValues(counter),
      reset: () => this.reset(),
    };
    const histogram: TalliedMetric = {
      name: 'http_request_duration_seconds',
      help: 'Time from request to answer, by route pattern and method.',
      type: 'histogram',
      aggregator: 'sum',
      get: async () => this.histogramValues(histogram),
      reset: () => this.reset(),
    };
    registry.registerMetric(counter as unknown as Metric);
    registry.registerMetric(histogram as unknown as Metric);
  }

  /**
   * A recorder for requests that share the values of the labels before route, method and status
   * (a proxy's name; none for a server). A request is then three Map lookups by values the caller
   * already holds (route pattern, method, status) — no key string built, no object made.
   */
  recorder(fixed: Record<string, string> = {}): (route: string, method: string, status: number, seconds: number) => void {
    const byRoute = new Map<string, Map<string, Map<number, Tally>>>();
    const bounds = this.upperBounds;
    return (route, method, status, seconds) => {
      let byMethod = byRoute.get(route);
      if (!byMethod) byRoute.set(route, (byMethod = new Map()));
      let byStatus = byMethod.get(method);
      if (!byStatus) byMethod.set(method, (byStatus = new Map()));
      let tally = byStatus.get(status);
      if (!tally) {
        tally = {labels: {...fixed, route, method, status: String(status)}, count: 0, sum: 0, buckets: new Float64Array(bounds.length)};
        byStatus.set(status, tally);
        this.tallies.add(tally);
      }
      tally.count++;
      tally.sum += seconds;
      for (let index = 0; index < bounds.length; index++) {
        if (seconds <= bounds[index]!) {
          tally.buckets[index]!++;
          break;
        }
      }
    };
  }

  /** Zeroes every tally in place (recorders keep theirs); a zeroed tally is not shown until counted again. */
  private reset(): void {
    for (const tally of this.tallies) {
      tally.count = 0;
      tally.sum = 0;
      tally.buckets.fill(0);
    }
  }

  private counterValues(metric: TalliedMetric): Collected {
    const values = [...this.tallies].filter((tally) => tally.count > 0).map((tally) => ({labels: tally.labels, value: tally.count}));
    return {name: metric.name, help: metric.help, type: metric.type, aggregator: metric.aggregator, values};
  }

  private histogramValues(metric: TalliedMetric): Collected {
    // Series by every label but status, summed over the statuses.
    const series = new Map<string, {labels: Record<string, string>; count: number; sum: number; buckets: Float64Array}>();
    for (const tally of this.tallies) {
      if (tally.count === 0) continue; // reset, and not counted since: not shown, as prom-client does
      const labels: Record<string, string> = {};
      for (const name of this.labelNames) if (name !== 'status') labels[name] = tally.labels[name]!;
      const key = this.labelNames.map((name) => (name === 'status' ? '' : tally.labels[name])).join('\0');
      let entry = series.get(key);
      if (!entry) {
        entry = {labels, count: 0, sum: 0, buckets: new Float64Array(this.upperBounds.length)};
        series.set(key, entry);
      }
      entry.count += tally.count;
      entry.sum += tally.sum;
      for (let index = 0; index < tally.buckets.length; index++) entry.buckets[index]! += tally.buckets[index]!;
    }
    const values: Collected['values'] = [];
    const name = metric.name;
    for (const entry of series.values()) {
      let cumulative = 0;
      this.upperBounds.forEach((bound, index) => {
        cumulative += entry.buckets[index]!;
        values.push({labels: {...entry.labels, le: bound}, value: cumulative, metricName: `${name}_bucket`});
      });
      values.push({labels: {...entry.labels, le: '+Inf'}, value: entry.count, metricName: `${name}_bucket`});
      values.push({labels: entry.labels, value: entry.sum, metricName: `${name}_sum`});
      values.push({labels: entry.labels, value: entry.count, metricName: `${name}_count`});
    }
    return {name, help: metric.help, type: metric.type, aggregator: metric.aggregator, values};
  }
}

/** What prom-client's registry reads of a metric (its `metrics()`, `getMetricsAsJSON()`, `resetMetrics()`). */
interface TalliedMetric {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  get(): Promise<Collected>;
  reset(): void;
}

/** A metric's values as prom-client's own metrics return them from `get()`. */
interface Collected {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  values: Array<{labels: Record<string, string | number>; value: number; metricName?: string}>;
}
