import type {MetricsSource} from '../metrics/types.js';

/** What a server (or dev proxy) showed over one refresh interval. */
export interface ServerFigures {
  source: MetricsSource;
  state: 'up' | 'stopped' | 'garbage';
  /** Why it is stopped or garbage, in a line. */
  error?: string;
  requestsPerSecond?: number;
  /** Requests counted since the server started (the counter as read). */
  requestsTotal?: number;
  /** Milliseconds, from the histogram's buckets over the interval. */
  latency?: {p50: number; p95: number; p99: number};
  /** Responses over the interval by class. */
  status?: Record<StatusClass, number>;
}

export type StatusClass = '2xx' | '3xx' | '4xx' | '5xx';
export const STATUS_CLASSES: StatusClass[] = ['2xx', '3xx', '4xx', '5xx'];

export interface ProcessFigures {
  name: string;
  /** Percent of one core over the interval. */
  cpuPercent: number;
  memoryMb: number;
}

/**
 * One refresh of the dashboard: the figures of every source, computed from two snapshots. A figure
 * the sources do not expose is absent, and its chart says "no data" rather than showing a zero.
 */
export interface DashboardFrame {
  at: number;
  servers: ServerFigures[];
  processes: ProcessFigures[];
  /** Errors and warnings per minute by source (the daemon's alert counters). */
  alertsPerMinute?: Record<string, {errors: number; warnings: number}>;
  alertRing?: {used: number; capacity: number};
  poller?: {fetches: number; notModified: number; failures: number};
  outboxBacklog?: number;
}
