/**
 * The metrics contract (issue 15): what every server and the daemon expose on `GET /metrics` in the
 * Prometheus text format, and what `workbench metrics` and `workbench dashboard` read back. The
 * dashboard computes nothing the servers do not expose: rates come from counters read twice,
 * percentiles from histogram buckets, as Prometheus itself does.
 *
 *   servers/kit + the daemon  prom-client registries → GET /metrics (loopback-protected)
 *   source/metrics/collect    the registry of running services + the daemon → MetricsSnapshot
 *   source/metrics/figures    two snapshots → the figures a face shows (rates, percentiles, shares)
 *   commands/metrics          `workbench metrics [--json]`: the current figures
 *   source/dashboard          `workbench dashboard` (blessed-contrib) and the TUI's `D`
 */

/** Where metrics come from: the daemon, or a server found in the service registry. */
export interface MetricsSource {
  /** `daemon`, `reader`, `gateway`, `graphql`, or a dev proxy's name (`proxy:<name>`). */
  name: string;
  kind: 'daemon' | 'reader' | 'gateway' | 'graphql' | 'proxy';
  /** The `/metrics` URL read. */
  url: string;
}

/** One sample of a metric family: its labels and value (`le` kept for histogram buckets). */
export interface MetricSample {
  /** The sample's own name (`http_request_duration_seconds_bucket`, `_sum`, `_count`). */
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface MetricFamily {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  samples: MetricSample[];
}

/** One source as read at one moment: up with its families, stopped (no answer), or garbage (an answer that is not the text format). */
export type SourceSnapshot = {source: MetricsSource; state: 'up'; families: MetricFamily[]} | {source: MetricsSource; state: 'stopped' | 'garbage'; error: string};

export interface MetricsSnapshot {
  /** Milliseconds since the epoch when the reads began. */
  at: number;
  sources: SourceSnapshot[];
}
